"use strict";
let variants = [];
const $ = (id) => document.getElementById(id);

// Everything the server sends is shown as text (textContent), never parsed as HTML.
function seatChoices(variant, seat) {
  const select = document.createElement("select");
  select.id = `seat${seat}`;
  const person = document.createElement("option");
  person.value = "human";
  person.textContent = t("seat.person");
  select.appendChild(person);
  for (const level of variant.bots) {
    const option = document.createElement("option");
    option.value = level.name;
    option.textContent = level.rating
      ? t("seat.bot_rated", { level: serverWord("level", level.name), bot: level.bot, rating: level.rating })
      : t("seat.bot", { level: serverWord("level", level.name), bot: level.bot });
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

function emptyRow(body, text) {
  // A table's one row that says it has none.
  const row = document.createElement("tr");
  const td = cell(text);
  td.colSpan = 4;
  td.className = "muted";
  row.appendChild(td);
  body.appendChild(row);
}

function showSeats() {
  const variant = variants.find((v) => v.name === $("variant").value);
  const seats = $("seats");
  seats.replaceChildren();
  for (let seat = 0; seat < variant.players; seat++) {
    const label = document.createElement("label");
    label.textContent = t(seat === 0 ? "seat.yours" : "seat.number", { seat: seat + 1 }) + " ";
    label.appendChild(seatChoices(variant, seat));
    seats.appendChild(label);
  }
  // The kinds of play the server offers for this choice (tavli is a match only).
  for (const option of $("kind").options) option.disabled = !variant.kinds.includes(option.value);
  if (!variant.kinds.includes($("kind").value)) $("kind").value = variant.kinds[0];
  const kind = $("kind").value;
  $("length-label").hidden = kind !== "match";
  $("stake-label").hidden = kind !== "money";
  $("cube-label").hidden = kind === "game" || !variant.cube;
  const two = variant.players === 2;
  $("rated-label").hidden = !two || kind === "money";
  $("summary").textContent = serverWord("summary", variant.name);
  showRules(variant);
}

async function loadTables() {
  const rows = await (await fetch("/api/tables")).json();
  const body = $("tables");
  body.replaceChildren();
  if (!rows.length) {
    emptyRow(body, t("tables.none"));
    return;
  }
  for (const row of rows) {
    const tr = document.createElement("tr");
    const seats = row.seats.map((s) => guestName(s) + (s.human && !s.taken ? ` (${t("tables.free")})` : "")).join(", ");
    const kind = row.kind === "match" ? t("tables.match", { length: row.length }) : t(`create.kind.${row.kind}`);
    const clock = row.clock ? ", " + t("tables.clock", { delay: row.clock.delay, minutes: Math.round(row.clock.reserve / 60) }) : "";
    const rated = row.rated ? ", " + t("create.rated") : "";
    tr.append(cell(row.id, true), cell(`${serverWord("variant", row.variant)} (${kind}${clock}${rated})`),
              cell(seats), cell(""));
    const actions = tr.lastChild;
    const watch = document.createElement("a");
    watch.href = `/t/${encodeURIComponent(row.id)}`;
    watch.textContent = t("tables.watch");
    actions.appendChild(watch);
    if (row.free.length) {
      const join = document.createElement("button");
      join.textContent = t("tables.take");
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
  if ($("clock").value) {
    const [delay, reserve] = $("clock").value.split("/").map(Number);
    body.clock = { delay, reserve, per: body.kind === "match" ? "match" : "game" };
  }
  if (!$("rated-label").hidden && $("rated").checked) body.rated = true;
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

// --- the account, and the ratings -----------------------------------------------------

async function showMe() {
  const me = await (await fetch("/api/me")).json();
  $("me").textContent = me.name ? t("account.signed_in", { name: me.name }) : t("account.guest");
  $("my-page").hidden = !me.name;
  if (me.name) $("my-page").href = `/u/${encodeURIComponent(me.name)}`;
  $("account").hidden = Boolean(me.name);
  $("sign-out").hidden = !me.name;
  $("sign-out-everywhere").hidden = !me.name;
}

async function account(path) {
  $("account-error").textContent = "";
  const answer = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: $("name").value, password: $("password").value }) });
  const data = await answer.json();
  if (!answer.ok) { $("account-error").textContent = data.error; return; }
  $("password").value = "";
  showMe();
}

// A link to a player's page (/u/NAME), its words as text.
function playerLink(name, text) {
  const a = document.createElement("a");
  a.href = `/u/${encodeURIComponent(name)}`;
  a.textContent = text;
  return a;
}

async function showLeaders() {
  const data = await (await fetch(`/api/leaderboard?pool=${encodeURIComponent($("pool").value)}`)).json();
  const body = $("leaders");
  body.replaceChildren();
  (data.players || []).forEach((row, k) => {
    const tr = document.createElement("tr");
    const who = document.createElement("td");
    who.appendChild(playerLink(row.name, row.name));
    tr.append(cell(String(k + 1)), who, cell(`${Math.round(row.rating)} ± ${Math.round(2 * row.deviation)}`),
              cell(String(row.games)));
    body.appendChild(tr);
  });
  if (!body.children.length) emptyRow(body, t("ratings.none"));
}

$("account").onsubmit = (event) => { event.preventDefault(); account("/api/signin"); };
$("sign-up").onclick = () => account("/api/signup");
async function signOut(everywhere) {
  await fetch("/api/signout", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ everywhere }) });
  showMe();
}
$("sign-out").onclick = () => signOut(false);
$("sign-out-everywhere").onclick = () => signOut(true);

async function start() {
  variants = await (await fetch("/api/variants")).json();
  $("variant").replaceChildren();
  for (const variant of variants) {
    const option = document.createElement("option");
    option.value = variant.name;
    option.textContent = t("create.variant", { variant: serverWord("variant", variant.name), players: variant.players });
    $("variant").appendChild(option);
  }
  $("variant").value = "backgammon";
  $("variant").disabled = $("create-button").disabled = false;
  $("variant").onchange = showSeats;
  $("kind").onchange = showSeats;
  $("create").onsubmit = create;
  showSeats();
  for (const variant of variants) {
    const name = serverWord("variant", variant.name);
    const pools = [[`${variant.name}:game`, t("ratings.pool.game", { variant: name })]];
    if (variant.kinds.includes("match")) {
      for (const n of [1, 3, 5, 7]) pools.push([`${variant.name}:match${n}`, t("ratings.pool.match", { variant: name, length: n })]);
    }
    for (const [value, text] of pools) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      $("pool").appendChild(option);
    }
  }
  $("pool").value = "backgammon:match3";
  $("pool").onchange = showLeaders;
  showLeaders();
  showMe();
  loadTables();
  setInterval(loadTables, 5000);
}
// --- A table's options (issue 34): those /api/variants offers, in their ranges. ---

function showRules(variant) {
  const rules = $("rules");
  rules.replaceChildren();
  for (const option of variant.options || []) {
    const label = document.createElement("label");
    label.textContent = `${serverWord("option", option.name)} `;
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

i18n.ready.then(start);
