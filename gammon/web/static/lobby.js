"use strict";
let variants = [];
const $ = (id) => document.getElementById(id);

function seatChoices(variant, seat) {
  const options = ["human", ...variant.bots.filter((b) => b !== "human")];
  const select = document.createElement("select");
  select.id = `seat${seat}`;
  for (const kind of options) {
    const option = document.createElement("option");
    option.value = kind;
    option.textContent = kind === "human" ? "a person" : `bot: ${kind}`;
    select.appendChild(option);
  }
  select.value = seat === 0 ? "human" : variant.bots[0];
  return select;
}

function showSeats() {
  const variant = variants.find((v) => v.name === $("variant").value);
  const seats = $("seats");
  seats.replaceChildren();
  for (let seat = 0; seat < variant.players; seat++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat + 1}${seat === 0 ? " (you)" : ""}: `;
    label.appendChild(seatChoices(variant, seat));
    seats.appendChild(label);
  }
  const kind = $("kind").value;
  $("length-label").hidden = kind !== "match";
  $("stake-label").hidden = kind !== "money";
  $("cube-label").hidden = kind === "game" || !variant.cube;
  const two = variant.players === 2;
  $("kind").querySelector('option[value="match"]').disabled = !two || !variant.cube;
}

async function loadTables() {
  const rows = await (await fetch("/api/tables")).json();
  const body = $("tables");
  body.replaceChildren();
  if (!rows.length) {
    body.innerHTML = '<tr><td colspan="4" class="muted">none yet</td></tr>';
    return;
  }
  for (const row of rows) {
    const tr = document.createElement("tr");
    const seats = row.seats.map((s) => `${s.name}${s.human ? (s.taken ? "" : " (free)") : ""}`).join(", ");
    tr.innerHTML = `<td><code>${row.id}</code></td><td>${row.variant} (${row.kind})</td><td>${seats}</td><td></td>`;
    const actions = tr.lastChild;
    const watch = document.createElement("a");
    watch.href = `/t/${row.id}`;
    watch.textContent = "watch";
    actions.appendChild(watch);
    if (row.free.length) {
      const join = document.createElement("button");
      join.textContent = "take a seat";
      join.onclick = async () => {
        const answer = await fetch(`/api/tables/${row.id}/seats`, { method: "POST" });
        const data = await answer.json();
        if (!answer.ok) { $("error").textContent = data.error; return; }
        location.href = data.url;
      };
      actions.appendChild(join);
    }
    body.appendChild(tr);
  }
}

async function create(event) {
  event.preventDefault();
  $("error").textContent = "";
  const variant = variants.find((v) => v.name === $("variant").value);
  const seats = [];
  for (let seat = 0; seat < variant.players; seat++) seats.push($(`seat${seat}`).value);
  const body = { variant: variant.name, seats, kind: $("kind").value };
  if (body.kind === "match") body.length = Number($("length").value);
  if (body.kind === "money") body.stake = Number($("stake").value);
  if (body.kind !== "game") body.cube = $("cube").checked;
  $("create-button").disabled = true;
  const answer = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
                                              body: JSON.stringify(body) });
  const data = await answer.json();
  $("create-button").disabled = false;
  if (!answer.ok) { $("error").textContent = data.error; return; }
  location.href = data.url;
}

async function start() {
  variants = await (await fetch("/api/variants")).json();
  $("variant").replaceChildren();
  for (const variant of variants) {
    const option = document.createElement("option");
    option.value = variant.name;
    option.textContent = `${variant.name} (${variant.players} players)`;
    $("variant").appendChild(option);
  }
  $("variant").value = "backgammon";
  $("variant").disabled = $("create-button").disabled = false;
  $("variant").onchange = showSeats;
  $("kind").onchange = showSeats;
  $("create").onsubmit = create;
  showSeats();
  loadTables();
  setInterval(loadTables, 5000);
}
start();
