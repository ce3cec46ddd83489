// The New game form, enhanced: only the chosen game's part shows, and on a 4-player board (Red
// Arse's, or a Ludo table of up to 4) the 6-player board's extra colors hide. Hidden fields are disabled so they aren't sent.
// Without this script the form still works: every part shows and the server reads the chosen
// game's fields.

const form = document.getElementById("newgame");

function show(part, visible) {
  part.hidden = !visible;
  for (const input of part.querySelectorAll("input")) input.disabled = !visible;
}

function update() {
  const game = form.querySelector("input[name=game]:checked").value;
  for (const table of form.querySelectorAll("section.table")) {
    const chosen = table.dataset.game === game;
    show(table, chosen);
    const size = table.querySelector("input[data-board]:checked");
    if (!chosen || !size) continue;
    const board = +(size.dataset.board || size.value);
    for (const seat of table.querySelectorAll("fieldset.player")) {
      show(seat, +seat.dataset.seat < board);
    }
  }
}

if (form) {
  form.classList.add("enhanced");
  form.addEventListener("change", (event) => {
    if (event.target.name === "game" || event.target.hasAttribute("data-board")) update();
  });
  update();
}
