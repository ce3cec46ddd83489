// The New game form, enhanced: only the chosen game's part shows, and on a 4-player board (Red
// Arse's, or a Ludo table of up to 4) the 6-player board's extra colors hide. Hidden fields are disabled so they aren't sent.
// Seats played by bots hide their phone number and "This is me". "By WhatsApp" follows the
// table's language and the number typed, until the host ticks or unticks it.
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

// Where friends message by WhatsApp (the server's list, by phonenumbers: #newgame's
// data-whatsapp-codes, calling codes, and data-whatsapp-langs, the table languages whose
// numbers typed without a code are from there): a number with such a code (+54...), or one
// without a code at a table in such a language, is ticked "By WhatsApp"; any other, a text.
function whatsappFirst(phone, lang) {
  const typed = phone.replace(/[^\d+]/g, "");
  if (!typed.startsWith("+")) return form.dataset.whatsappLangs.split(" ").includes(lang);
  return form.dataset.whatsappCodes.split(" ").some((code) => typed.startsWith(`+${code}`));
}

// A seat's channel as the table's language and its number suggest, unless the host chose it.
function suggestChannel(seat) {
  const box = seat.querySelector("input[type=checkbox][name*=whatsapp]");
  const phone = seat.querySelector("input[type=tel]");
  if (!box || !phone || box.dataset.chosen) return;
  const lang = seat.closest("section.table").querySelector(".tablelang input:checked");
  box.checked = whatsappFirst(phone.value, lang && lang.value);
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
    if ((event.target.name || "").includes("whatsapp")) event.target.dataset.chosen = "1";
    if (event.target.closest(".tablelang")) {
      for (const seat of event.target.closest("section.table").querySelectorAll("fieldset.player")) {
        suggestChannel(seat);
      }
    }
  });
  form.addEventListener("input", (event) => {
    if (event.target.type === "tel") suggestChannel(event.target.closest("fieldset.player"));
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
