// Secret reveals (views/secrets.templ): in a [data-reveal] block, the
// Reveal button ([data-reveal-show]) asks the server through htmx, which
// disables it while the request runs, so that a double click reveals (and
// audits) once; the answer takes the place of the block's rows
// ([data-revealed]), and the button gives way to Hide values
// ([data-reveal-hide]), which puts the rows back, drops the values from
// the page and brings the Reveal button back, without a request.
(function () {
  "use strict";

  var rowsOf = new WeakMap(); // an output: the rows it showed before the reveal

  function output(elt) {
    return elt instanceof Element && elt.matches("[data-revealed]") ? elt : null;
  }

  function show(block, revealed) {
    var reveal = block.querySelector("[data-reveal-show]");
    var hide = block.querySelector("[data-reveal-hide]");
    reveal.hidden = revealed;
    hide.hidden = !revealed;
    (revealed ? hide : reveal).focus();
  }

  document.addEventListener("htmx:beforeSwap", function (e) {
    var out = output(e.detail.target);
    if (out && !rowsOf.has(out)) rowsOf.set(out, Array.from(out.childNodes));
  });

  document.addEventListener("htmx:afterSwap", function (e) {
    var out = output(e.detail.target);
    if (out) show(out.closest("[data-reveal]"), true);
  });

  document.addEventListener("click", function (e) {
    var hide = e.target instanceof Element && e.target.closest("[data-reveal-hide]");
    if (!hide) return;
    var block = hide.closest("[data-reveal]");
    var out = block.querySelector("[data-revealed]");
    out.replaceChildren.apply(out, rowsOf.get(out) || []);
    rowsOf.delete(out);
    show(block, false);
  });
})();
