// Destructive tools: a tool card whose form is marked data-destructive
// (views/tool_destructive.templ) does not send when Call is pressed; it
// opens the card's confirmation step instead. Only the step's Confirm
// button sends, and it carries _confirm=yes, without which the server
// refuses the call. Cancel (or Escape) closes the step; nothing is sent.
(function () {
  "use strict";

  function step(form) { return form.querySelector("[data-destructive-confirm]"); }

  function close(form) {
    const s = step(form);
    if (s) s.hidden = true;
    const call = form.querySelector('[data-testid="call-tool"]');
    if (call) call.focus();
  }

  // htmx asks before every request; a destructive form's request goes
  // ahead only when its Confirm button submitted it.
  document.addEventListener("htmx:confirm", function (evt) {
    const form = evt.detail.elt;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-destructive")) return;
    const s = step(form);
    if (!s) return;
    const submit = evt.detail.triggeringEvent;
    if (submit && submit.submitter && submit.submitter.hasAttribute("data-destructive-yes")) {
      s.hidden = true; // the call runs; its card comes back fresh
      return;
    }
    evt.preventDefault();
    s.hidden = false;
    s.querySelector("[data-destructive-yes]").focus();
  });

  document.addEventListener("click", function (evt) {
    const cancel = evt.target instanceof Element && evt.target.closest("[data-destructive-cancel]");
    if (cancel) close(cancel.closest("form"));
  });

  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape" || !(evt.target instanceof Element)) return;
    const s = evt.target.closest("[data-destructive-confirm]");
    if (s && !s.hidden) close(s.closest("form"));
  });
})();
