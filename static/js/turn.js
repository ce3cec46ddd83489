// What the game page and the room page draw alike around a turn: each player's chance to win,
// who is away or disqualified, and the re-roll claim's window.

import { chancesAt, showChances } from "./review.js";
import { TEXT, seatsColors } from "./table.js";

// The chance-to-win pills on `board` for the game `v` at `step`.
export function pills(board, v, step) {
  showChances(board, seatsColors(v), chancesAt(v.token, step));
}

// Who of `seats` is away (their turns played for them until they say they're back) or
// disqualified, in #away: "I'm back" on the lines of those `mayComeBack(seat)` allows (a tap:
// `comeBack(seat)`), then the lines in `more`.
export function showAway(seats, mayComeBack, comeBack, more = []) {
  const box = document.getElementById("away");
  box.replaceChildren();
  for (const s of seats) {
    if (!s.away && !s.out) continue;
    const line = document.createElement("p");
    line.textContent = s.out ? TEXT.disqualified(s.name) : TEXT.away(s.name);
    if (s.away && mayComeBack(s.seat)) {
      const button = document.createElement("button");
      button.textContent = TEXT.imBack(s.name);
      button.dataset.seat = s.seat;
      button.addEventListener("click", () => comeBack(s.seat));
      line.append(" ", button);
    }
    box.append(line);
  }
  box.append(...more);
  box.hidden = !box.childElementCount;
}

// The re-roll claim: Roll within its window claims it; once `claim.seconds` are up the page
// lets it go (`letGo()`), unless `open(ticket)` says the window is gone already (claimed, or
// let go). A step of the page's still on its way (`busy()`: a tap on Roll) is waited for.
export function armClaim(claim, { open, busy, letGo }) {
  const { ticket } = claim;
  const expire = () => {
    if (!open(ticket)) return;
    if (busy()) { setTimeout(expire, 200); return; }
    letGo();
  };
  setTimeout(expire, claim.seconds * 1000);
}
