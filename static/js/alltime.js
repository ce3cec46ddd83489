// All-time wins and games by player name, kept in this browser (localStorage): each finished
// game counts once (by its seed), whichever of its links is opened here, and however often.
// Names are whatever people typed: they are only ever shown as text (textContent).

const KEY = "boardpass:alltime";
const KEEP = 1000;  // finished games remembered, so that none counts twice

// { players: [[name, wins, games], ...], games: [seed, ...] }: names are kept in a list, never
// as an object's keys (a name like "__proto__" is just a name).
function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    if (data && Array.isArray(data.players) && Array.isArray(data.games)) return data;
  } catch {
    // A damaged entry starts the count again.
  }
  return { players: [], games: [] };
}

// Count a finished game once: a game for each of `names`, a win for `winner`.
export function countGame(seed, names, winner) {
  const data = load();
  if (data.games.includes(seed)) return false;
  for (const name of new Set(names)) {
    let row = data.players.find((r) => r[0] === name);
    if (!row) data.players.push(row = [name, 0, 0]);
    row[2] += 1;
    if (name === winner) row[1] += 1;
  }
  data.games = [...data.games, seed].slice(-KEEP);
  localStorage.setItem(KEY, JSON.stringify(data));
  return true;
}

// Every name counted here, most wins first: [{ name, wins, games }].
export function allTime(names = null) {
  return load().players
    .filter(([name]) => !names || names.includes(name))
    .map(([name, wins, games]) => ({ name, wins, games }))
    .sort((a, b) => b.wins - a.wins || b.games - a.games || a.name.localeCompare(b.name));
}

// The rows of a Name · Wins · Games table body.
export function fillTable(tbody, rows) {
  tbody.replaceChildren();
  for (const row of rows) {
    const tr = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = row.name;
    tr.appendChild(name);
    for (const n of [row.wins, row.games]) {
      const cell = document.createElement("td");
      cell.textContent = n;
      tr.appendChild(cell);
    }
    tbody.appendChild(tr);
  }
}
