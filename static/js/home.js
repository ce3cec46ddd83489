// The New game form, enhanced: only the chosen game's part shows, and on a 4-player board (Red
// Arse's, or a Ludo table of up to 4) the 6-player board's extra colors hide. Hidden fields are disabled so they aren't sent.
// Seats played by bots hide their phone number and "This is me".
// Without this script the form still works: every part shows and the server reads the chosen
// game's fields. Below it: all-time wins of the games finished in this browser (alltime.js).

import { allTime, fillTable } from "./alltime.js";

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
    if (chosen && size) {
      const board = +(size.dataset.board || size.value);
      for (const seat of table.querySelectorAll("fieldset.player")) {
        show(seat, +seat.dataset.seat < board);
      }
    }
    if (chosen) for (const seat of table.querySelectorAll("fieldset.player")) bots(seat);
  }
}

// A seat played by a bot has no phone number and is never the host; its name may stay blank
// (the placeholder says what the server calls it).
function bots(seat) {
  const choice = seat.querySelector("select[data-bot]");
  if (!choice) return;
  const bot = !!choice.value;
  if (!seat.hidden) for (const part of seat.querySelectorAll("[data-human]")) show(part, !bot);
  const name = seat.querySelector("input[name$=name" + seat.dataset.seat + "]");
  if (name) {
    name.dataset.person = name.dataset.person || name.placeholder;
    name.placeholder = bot ? choice.selectedOptions[0].textContent.trim() : name.dataset.person;
  }
  const host = seat.querySelector("input[type=radio][name=lu_host]");
  if (host && bot && host.checked) {  // the host is the first person instead
    const free = [...seat.parentElement.querySelectorAll("input[type=radio][name=lu_host]")]
      .filter((radio) => !radio.disabled);
    const playing = (radio) => radio.closest("fieldset.player")
      .querySelector("input[type=checkbox][name$=play" + radio.value + "]").checked;
    const other = free.find(playing) || free[0];
    host.checked = false;
    if (other) other.checked = true;
  }
}

// One device passed around, or a live room, has no turn deadline to choose (a room has its
// timer in seconds instead). The two are one or the other.
function deadline(changed = null) {
  const local = form.querySelector("input[name=local]");
  const room = form.querySelector("input[name=room]");
  const choice = document.getElementById("deadlinechoice");
  if (!local || !room || !choice) return;
  if (changed === local && local.checked) room.checked = false;
  if (changed === room && room.checked) local.checked = false;
  const none = local.checked || room.checked;
  choice.hidden = none;
  choice.querySelector("select").disabled = none;
  const timer = document.getElementById("roomtimer");  // a room's own: seconds, not hours
  timer.hidden = !room.checked;
  timer.querySelector("select").disabled = !room.checked;
}

if (form) {
  form.classList.add("enhanced");
  form.addEventListener("change", (event) => {
    if (event.target.name === "local" || event.target.name === "room") deadline(event.target);
    if (event.target.name === "game" || event.target.hasAttribute("data-board")) update();
    if (event.target.hasAttribute("data-bot")) bots(event.target.closest("fieldset.player"));
  });
  update();
  deadline();
}

// All-time wins and games of the players of games finished in this browser.
const players = allTime();
if (players.length) {
  fillTable(document.querySelector("#alltime tbody"), players);
  document.getElementById("alltimebox").hidden = false;
}
