// Copy buttons of the exchange page: a button with data-copy-target copies
// the text of the element with that id (also shown, so that it can be
// selected by hand without script) and says whether that worked.
(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-copy-target]");
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy-target"));
    if (!source) return;
    var say = function (text) {
      button.textContent = text;
      setTimeout(function () { button.textContent = "Copy"; }, 2000);
    };
    var selectText = function () {
      var range = document.createRange();
      range.selectNodeContents(source);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    };
    if (!navigator.clipboard) {
      selectText();
      say("Selected: press Ctrl+C");
      return;
    }
    // A clipboard the browser keeps waiting (a permission prompt) falls
    // back to the selection after a second; its later answer still shows.
    var fallback = setTimeout(function () {
      selectText();
      say("Selected: press Ctrl+C");
    }, 1000);
    navigator.clipboard.writeText(source.textContent).then(function () {
      clearTimeout(fallback);
      say("Copied");
    }, function () {
      clearTimeout(fallback);
      selectText();
      say("Selected: press Ctrl+C");
    });
  });
})();
