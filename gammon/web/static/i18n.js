"use strict";
// The pages' words, from a message catalogue (/static/i18n/LANG.json): English and
// Russian. The language is the one chosen here (kept in this browser), else the
// browser's own when it is Russian, else English. Elements say which message they show
// with data-i18n (text), data-i18n-title and data-i18n-placeholder; scripts call t().
const LANGUAGES = { en: "English", ru: "Русский" };
const languageKey = "gammon:language";
let catalogue = {};
// Whether ``table`` has ``key`` of its own: never a property every object inherits, so
// a language, a message or a placeholder named "constructor" or "__proto__" is unknown.
const owns = (table, key) => Object.prototype.hasOwnProperty.call(table, key);

function chosenLanguage() {
  const kept = localStorage.getItem(languageKey);
  if (kept && owns(LANGUAGES, kept)) return kept;
  return (navigator.language || "").toLowerCase().startsWith("ru") ? "ru" : "en";
}

// The message ``key`` with its {placeholders} filled from ``params`` (as text: a page
// shows it with textContent); the key itself when the catalogue lacks it.
function t(key, params = {}) {
  const text = owns(catalogue, key) ? String(catalogue[key]) : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (owns(params, name) ? String(params[name]) : whole));
}

// A word the server sends (an action, a variant's name) in the page's language, when
// the catalogue has it under ``prefix``; else as the server wrote it.
function serverWord(prefix, word) {
  const key = `${prefix}.${word}`;
  return owns(catalogue, key) ? catalogue[key] : word;
}

// A seat's name as the pages show it: a guest is "player N" in the page's language, an
// account or a bot by its own name.
function guestName(seat) {
  return seat.human && !seat.account && seat.name === `player ${seat.seat + 1}`
    ? t("table.player", { seat: seat.seat + 1 }) : seat.name;
}

function translatePage() {
  document.documentElement.lang = i18n.language;
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of document.querySelectorAll("[data-i18n-title]")) element.title = t(element.dataset.i18nTitle);
  for (const element of document.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = t(element.dataset.i18nPlaceholder);
  }
  const picker = document.getElementById("language");
  if (picker && !picker.options.length) {
    for (const [code, name] of Object.entries(LANGUAGES)) {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      picker.appendChild(option);
    }
    picker.onchange = () => { localStorage.setItem(languageKey, picker.value); location.reload(); };
  }
  if (picker) picker.value = i18n.language;
}

const i18n = { language: chosenLanguage(), ready: null };
i18n.ready = fetch(`/static/i18n/${i18n.language}.json`)
  .then((answer) => answer.json())
  .then((messages) => { catalogue = messages; translatePage(); });
