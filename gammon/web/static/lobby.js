"use strict";
let variants = [];
const $ = (id) => document.getElementById(id);

// Everything the server sends is shown as text (textContent), never parsed as HTML.
function seatChoices(variant, seat) {
  const select = document.createElement("select");
  select.id = `seat${seat}`;
  const person = document.createElement("option");
  person.value = "human";
  person.textContent = "a person";
  select.appendChild(person);
  for (const level of variant.bots) {
    const option = document.createElement("option");
    option.value = level.name;
    option.textContent = `bot: ${level.name} (${level.bot})`;
    option.title = level.summary;
    select.appendChild(option);
  }
  select.value = seat === 0 ? "human" : variant.bots[0].name;
  return select;
}

function cell(text, code) {
  const td = document.createElement("td");
  const inner = code ? document.createElement("code") : td;
  inner.textContent = text;
  if (code) td.appendChild(inner);
  return td;
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
  showRules(variant);
}

async function loadTables() {
  const rows = await (await fetch("/api/tables")).json();
  const body = $("tables");
  body.replaceChildren();
  if (!rows.length) {
    const tr = document.createElement("tr");
    const td = cell("none yet");
    td.colSpan = 4;
    td.className = "muted";
    tr.appendChild(td);
    body.appendChild(tr);
    return;
  }
  for (const row of rows) {
    const tr = document.createElement("tr");
    const seats = row.seats.map((s) => `${s.name}${s.human ? (s.taken ? "" : " (free)") : ""}`).join(", ");
    tr.append(cell(row.id, true), cell(`${row.variant} (${row.kind})`), cell(seats), cell(""));
    const actions = tr.lastChild;
    const watch = document.createElement("a");
    watch.href = `/t/${encodeURIComponent(row.id)}`;
    watch.textContent = "watch";
    actions.appendChild(watch);
    if (row.free.length) {
      const join = document.createElement("button");
      join.textContent = "take a seat";
      join.onclick = async () => {
        const answer = await fetch(`/api/tables/${encodeURIComponent(row.id)}/seats`, {
          method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
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
  const options = tableOptions();
  if (options) body.options = options;
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
// --- A table's options (issue 34): those /api/variants offers, in their ranges. ---

function showRules(variant) {
  const rules = $("rules");
  rules.replaceChildren();
  for (const option of variant.options || []) {
    const label = document.createElement("label");
    label.textContent = `${option.name.replaceAll("_", " ")} `;
    const input = document.createElement("input");
    input.type = "number";
    input.id = `option-${option.name}`;
    input.dataset.option = option.name;
    input.min = option.low;
    input.max = option.high;
    input.value = option.default;
    input.size = 5;
    label.appendChild(input);
    rules.appendChild(label);
  }
}

function tableOptions() {
  const options = {};
  for (const input of $("rules").querySelectorAll("input[data-option]")) {
    options[input.dataset.option] = Number(input.value);
  }
  return Object.keys(options).length ? options : null;
}

start();
