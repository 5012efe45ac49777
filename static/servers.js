// Server form: the roots editor. "Add a root" appends an empty row from
// the template; "Remove" takes a row away (the last one is emptied
// instead, so that one row stays to type in). Without script the buttons
// stay hidden and an emptied row is dropped when the form is saved.
(function () {
  "use strict";

  function rootsEditor(fieldset) {
    var list = fieldset.querySelector("[data-root-list]");
    var template = fieldset.querySelector("template[data-root-template]");
    var add = fieldset.querySelector("[data-root-add]");
    if (!list || !template || !add) {
      return;
    }
    function reveal(scope) {
      scope.querySelectorAll("[data-root-remove]").forEach(function (b) { b.hidden = false; });
    }
    add.hidden = false;
    reveal(list);
    add.addEventListener("click", function () {
      list.appendChild(template.content.cloneNode(true));
      reveal(list);
      var rows = list.querySelectorAll("[data-root-row]");
      rows[rows.length - 1].querySelector("input").focus();
    });
    list.addEventListener("click", function (ev) {
      var button = ev.target.closest("[data-root-remove]");
      if (!button) {
        return;
      }
      var row = button.closest("[data-root-row]");
      if (list.querySelectorAll("[data-root-row]").length > 1) {
        row.remove();
        add.focus();
      } else {
        row.querySelectorAll("input").forEach(function (input) { input.value = ""; });
        row.querySelector("input").focus();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("fieldset[data-roots]").forEach(rootsEditor);
  });
})();
