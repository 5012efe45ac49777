// Server requests (elicitation, sampling) draw attention wherever the user
// is scrolled: while any waits, a toast fixed on screen names the oldest
// ("Server asks: sampling") and how many more wait; its Answer button opens
// the request's card in a dialog. A card answered (here, or by someone
// else watching: the live stream then says who) or abandoned (the stream
// deletes it) is no longer a request and closes its dialog; the toast then
// names the next, or goes. URL elicitations open their link only after the
// person has said yes to "Open <domain>?".
(function () {
  "use strict";
  var CARD = "[data-testid=input-request]";
  var dialog = null, body = null, home = null, toast = null;
  var dismissed = {}; // ids of the requests the toast was dismissed for

  function kindName(card) {
    switch (card.getAttribute("data-kind")) {
      case "sample": return "sampling";
      case "elicit-url": return "open a page";
      case "elicit-form": return "a form";
    }
    return "an answer";
  }

  // waiting lists the cards not in the dialog, oldest first (page order).
  function waiting() {
    return Array.prototype.filter.call(document.querySelectorAll(CARD), function (c) {
      return !dialog || !dialog.contains(c);
    });
  }

  function ensureDialog() {
    if (dialog) return;
    dialog = document.createElement("dialog");
    dialog.className = "input-dialog";
    dialog.setAttribute("data-testid", "input-dialog");
    dialog.setAttribute("aria-label", "The server is asking");
    var later = document.createElement("button");
    later.type = "button";
    later.className = "secondary small input-dialog-later";
    later.textContent = "Later";
    later.setAttribute("data-testid", "input-dialog-later");
    later.addEventListener("click", function () { dialog.close(); });
    body = document.createElement("div");
    dialog.append(later, body);
    dialog.addEventListener("close", putBack);
    document.body.append(dialog);
  }

  // open moves card into the dialog, leaving a marker where it was.
  function open(card) {
    ensureDialog();
    home = document.createComment("input card");
    card.before(home);
    body.replaceChildren(card);
    if (!dialog.open) dialog.showModal();
    var field = card.querySelector("textarea, input:not([type=hidden]), select, button");
    if (field) field.focus();
    refresh();
  }

  // putBack returns what the dialog holds to its place on the page, unless
  // the page has it again (a reconnected stream re-sent the panel).
  function putBack() {
    var held = body && body.firstElementChild;
    if (held && home && home.isConnected && !document.querySelectorAll("#" + CSS.escape(held.id))[1]) home.replaceWith(held);
    else if (held) held.remove();
    if (home) home.remove();
    home = null;
    refresh();
  }

  function showToast(first, more) {
    if (!toast) {
      toast = document.createElement("div");
      toast.className = "toast input-toast";
      toast.setAttribute("role", "alert");
      toast.setAttribute("data-testid", "input-toast");
      var text = document.createElement("span");
      var go = document.createElement("button");
      go.type = "button";
      go.textContent = "Answer";
      go.setAttribute("data-testid", "input-toast-go");
      go.addEventListener("click", function () {
        var card = toast.card;
        if (card && card.isConnected) open(card);
      });
      var close = document.createElement("button");
      close.type = "button";
      close.className = "dismiss";
      close.setAttribute("aria-label", "Dismiss");
      close.textContent = "×";
      close.addEventListener("click", function () {
        waiting().forEach(function (c) { dismissed[c.id] = true; });
        refresh();
      });
      toast.append(text, go, close);
      document.body.append(toast);
    }
    toast.card = first;
    toast.querySelector("span").textContent = "Server asks: " + kindName(first) + (more > 0 ? " (" + more + " more waiting)" : "");
  }

  // refresh makes the dialog and the toast follow the cards on the page.
  function refresh() {
    if (dialog && dialog.open && !body.querySelector(CARD)) dialog.close();
    var cards = waiting().filter(function (c) { return !dismissed[c.id]; });
    if (cards.length === 0 || (dialog && dialog.open)) {
      if (toast) { toast.remove(); toast = null; }
      return;
    }
    showToast(cards[0], cards.length - 1);
  }

  var scheduled = false;
  new MutationObserver(function (records) {
    // A card the live stream re-sends while the dialog holds it stays in
    // the dialog, where the person may be typing.
    var held = dialog && body.firstElementChild;
    if (held) records.forEach(function (r) {
      r.addedNodes.forEach(function (n) {
        if (n.nodeType !== 1 || dialog.contains(n)) return;
        var dup = n.id === held.id ? n : n.querySelector && n.querySelector("#" + CSS.escape(held.id));
        if (dup) dup.remove();
      });
    });
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(function () { scheduled = false; refresh(); });
  }).observe(document.documentElement, { childList: true, subtree: true });

  // "Open <domain>…" asks first; the link shows only after that.
  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("[data-url-ask], [data-url-back]");
    if (!t) return;
    var box = t.closest("[data-url-target]");
    var ask = t.hasAttribute("data-url-ask");
    box.querySelector("[data-url-ask-step]").hidden = ask;
    box.querySelector("[data-url-confirm]").hidden = !ask;
    if (ask) box.querySelector("[data-url-confirm] a").focus();
  });

  document.addEventListener("DOMContentLoaded", refresh);
})();
