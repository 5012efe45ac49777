// The dashboard's theme, light or dark: the one the person picked with the
// top bar's toggle (kept in localStorage), else the system's
// (prefers-color-scheme), which it follows as it changes. It is set as
// data-theme on the root element, which static/app.css reads; this script
// runs in the head, before the page paints, so no page flashes the other
// theme. Each change is announced as a "playground:theme" event.
(function () {
  "use strict";
  var KEY = "playground-theme";
  var system = window.matchMedia("(prefers-color-scheme: dark)");

  function picked() {
    try {
      var t = localStorage.getItem(KEY);
      return t === "dark" || t === "light" ? t : "";
    } catch (e) {
      return ""; // storage refused: the system's theme
    }
  }

  function current() {
    return document.documentElement.getAttribute("data-theme");
  }

  // label makes the toggle say what a click gives.
  function label() {
    var button = document.querySelector("[data-theme-toggle]");
    if (!button) return;
    var dark = current() === "dark";
    button.textContent = dark ? "Light theme" : "Dark theme";
    button.setAttribute("aria-pressed", String(dark));
  }

  function apply() {
    var theme = picked() || (system.matches ? "dark" : "light");
    document.documentElement.setAttribute("data-theme", theme);
    label();
    document.dispatchEvent(new CustomEvent("playground:theme", { detail: theme }));
  }

  apply();
  system.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", label);
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("[data-theme-toggle]")) return;
    try {
      localStorage.setItem(KEY, current() === "dark" ? "light" : "dark");
    } catch (err) {
      return; // nowhere to keep the choice: the system's theme stays
    }
    apply();
  });
})();
