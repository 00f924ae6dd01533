"use strict";
// The tournaments (/tournaments): open for entries, running, just over; and the form that
// makes one. Everything the server sends is shown as text (textContent).
const $ = (id) => document.getElementById(id);

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" });
}

// What a tournament plays, in words: its kind, game, length and clock.
function tournamentPlay(tournament) {
  const settings = tournament.settings;
  const clock = settings.clock ? t("pools.clock", { delay: settings.clock.delay, minutes: Math.round(settings.clock.reserve / 60) }) : "";
  return [t(`tournaments.kind.${tournament.kind}`), serverWord("variant", settings.variant),
    t("pools.match", { length: settings.length }), clock,
    settings.rated ? t("create.rated") : ""].filter(Boolean).join(" · ");
}

function row(tournament, time) {
  const tr = document.createElement("tr");
  const name = document.createElement("td");
  const a = document.createElement("a");
  a.href = `/tournaments/${encodeURIComponent(tournament.id)}`;
  a.textContent = tournament.name;
  name.appendChild(a);
  tr.appendChild(name);
  for (const text of [tournamentPlay(tournament), when(time), String(tournament.players)]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  return tr;
}

async function showTournaments() {
  const listed = await (await fetch("/api/tournaments")).json();
  for (const [status, time] of [["open", "starts"], ["running", "starts"], ["over", "ends"]]) {
    const body = $(status);
    body.replaceChildren(...listed[status].map((tournament) => row(tournament, tournament[time])));
    if (!body.children.length) {
      const tr = document.createElement("tr");
      const td = document.createElement("td");
      td.colSpan = 4;
      td.className = "muted";
      td.textContent = t("tournaments.none");
      tr.appendChild(td);
      body.appendChild(tr);
    }
  }
}

function showKind() {
  $("rounds-label").hidden = $("kind").value !== "swiss";
  $("minutes-label").hidden = $("kind").value !== "arena";
}

async function make(event) {
  event.preventDefault();
  $("error").textContent = "";
  const [delay, reserve] = $("clock").value.split("/").map(Number);
  const body = { name: $("name").value, description: $("description").value, kind: $("kind").value,
    variant: $("variant").value, length: Number($("length").value), rated: $("rated").checked,
    starts_in: Number($("starts-in").value), clock: { delay, reserve } };
  if (body.kind === "swiss") body.rounds = Number($("rounds").value);
  if (body.kind === "arena") body.minutes = Number($("minutes").value);
  const answer = await fetch("/api/tournaments", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { $("error").textContent = data.error; return; }
  location.href = data.url;
}

async function start() {
  await i18n.ready;
  for (const variant of await (await fetch("/api/variants")).json()) {
    if (variant.players !== 2) continue;
    const option = document.createElement("option");
    option.value = variant.name;
    option.textContent = serverWord("variant", variant.name);
    $("variant").appendChild(option);
  }
  $("variant").value = "backgammon";
  $("kind").onchange = showKind;
  $("make").onsubmit = make;
  showTournaments();
  setInterval(showTournaments, 10000);
}

start();
