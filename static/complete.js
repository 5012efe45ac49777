// Argument completion (MCP completion/complete) for form inputs.
//
// Contract: any <input> with these attributes gets suggestions from the
// server as the user types:
//   data-complete-ref   "prompt" or "resource" (a resource template)
//   data-complete-name  the prompt's name, or the template's URI template
//   data-complete-arg   the argument's (template variable's) name
// The input must sit inside an element with data-session-id (the server
// page's section body carries it while a session is live). The other
// inputs of the same <form> that carry data-complete-arg are sent as the
// already-filled arguments (context).
//
// Typing (debounced 200 ms) POSTs to /sessions/ID/complete the form fields
// ref, name, arg, value and ctx.ARG=VALUE, with the page's CSRF token in
// the X-CSRF-Token header (from the body's hx-headers). The answer is JSON
// {values, total, hasMore} or {error}. Only the answer to the latest
// request of an input is applied. Values show in a list under the input
// (data-complete-list, whose data-complete-for is the value they
// complete); clicking one, or Enter on the one chosen with the
// arrow keys, fills the input and fires input and change events. Errors
// show as a hint under the input (data-complete-error), never as a popup.
(() => {
	"use strict";
	const DELAY = 200;
	const state = new WeakMap(); // input -> {timer, seq, abort, list, hint, active}

	const csrfToken = () => {
		try {
			return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || "";
		} catch {
			return "";
		}
	};

	const stateOf = (input) => {
		let s = state.get(input);
		if (!s) {
			s = {timer: 0, seq: 0, abort: null, list: null, hint: null, active: -1, choosing: false, enterUsed: false};
			state.set(input, s);
		}
		return s;
	};

	// place returns the element of s named key, made and put after the
	// input (the list first, then the hint) when missing.
	const place = (input, s, key) => {
		if (s[key] && s[key].isConnected) return s[key];
		const e = document.createElement(key === "list" ? "ul" : "p");
		if (key === "list") {
			e.className = "complete-list";
			e.setAttribute("role", "listbox");
			e.setAttribute("data-complete-list", "");
			e.id = "complete-list-" + Math.random().toString(36).slice(2);
			input.setAttribute("aria-controls", e.id);
			input.after(e);
		} else {
			e.className = "hint complete-error";
			e.setAttribute("data-complete-error", "");
			e.setAttribute("role", "status");
			(s.list && s.list.isConnected ? s.list : input).after(e);
		}
		e.hidden = true;
		s[key] = e;
		return e;
	};

	const showError = (input, s, text) => {
		const hint = place(input, s, "hint");
		hint.textContent = text ? "Suggestions: " + text : "";
		hint.hidden = !text;
	};

	const close = (input, s) => {
		if (s.list) s.list.hidden = true;
		s.active = -1;
		input.setAttribute("aria-expanded", "false");
	};

	const choose = (input, s, value) => {
		input.value = value;
		close(input, s);
		s.seq++; // an answer still on its way is stale now
		s.choosing = true; // the events below ask for no suggestions
		input.dispatchEvent(new Event("input", {bubbles: true}));
		input.dispatchEvent(new Event("change", {bubbles: true}));
		s.choosing = false;
		input.focus();
	};

	const show = (input, s, answer, value) => {
		const list = place(input, s, "list");
		list.replaceChildren();
		list.dataset.completeFor = value; // what was typed when the server answered
		s.active = -1;
		for (const v of answer.values) {
			const li = document.createElement("li");
			li.setAttribute("role", "option");
			li.setAttribute("data-complete-value", "");
			li.textContent = v;
			list.append(li);
		}
		const total = answer.total || answer.values.length;
		if (answer.hasMore || total > answer.values.length) {
			const li = document.createElement("li");
			li.className = "muted complete-more";
			li.textContent = (total > answer.values.length ? total - answer.values.length + " more" : "More") + ": keep typing to narrow.";
			list.append(li);
		}
		const open = answer.values.length > 0 && !(answer.values.length === 1 && answer.values[0] === input.value);
		list.hidden = !open;
		input.setAttribute("aria-expanded", open ? "true" : "false");
	};

	const request = async (input) => {
		const s = stateOf(input);
		const holder = input.closest("[data-session-id]");
		if (!holder) return;
		const seq = ++s.seq;
		if (s.abort) s.abort.abort();
		s.abort = new AbortController();
		const body = new URLSearchParams({
			ref: input.dataset.completeRef,
			name: input.dataset.completeName,
			arg: input.dataset.completeArg,
			value: input.value,
		});
		const form = input.form;
		if (form) {
			for (const other of form.querySelectorAll("input[data-complete-arg]")) {
				if (other !== input && other.value !== "") body.append("ctx." + other.dataset.completeArg, other.value);
			}
		}
		let answer;
		try {
			const res = await fetch("/sessions/" + holder.dataset.sessionId + "/complete", {
				method: "POST", body, signal: s.abort.signal, credentials: "same-origin",
				headers: {"X-CSRF-Token": csrfToken()},
			});
			const json = (res.headers.get("Content-Type") || "").includes("application/json");
			answer = json ? await res.json() : {error: "the dashboard answered " + res.status + "; reload the page."};
			if (!res.ok && !answer.error) answer.error = "the dashboard answered " + res.status + ".";
		} catch (err) {
			if (err.name === "AbortError") return;
			answer = {error: "the dashboard could not be reached."};
		}
		if (seq !== s.seq) return; // a newer request is on its way
		showError(input, s, answer.error || "");
		if (answer.error) {
			close(input, s);
			return;
		}
		show(input, s, {values: answer.values || [], total: answer.total || 0, hasMore: !!answer.hasMore}, body.get("value"));
	};

	const isCompletable = (e) => e instanceof HTMLInputElement && e.dataset.completeRef !== undefined && e.dataset.completeArg !== undefined;

	document.addEventListener("input", (ev) => {
		const input = ev.target;
		if (!isCompletable(input)) return;
		const s = stateOf(input);
		if (s.choosing) return;
		clearTimeout(s.timer);
		s.timer = setTimeout(() => request(input), DELAY);
	});

	document.addEventListener("keydown", (ev) => {
		const input = ev.target;
		if (!isCompletable(input)) return;
		const s = stateOf(input);
		if (!s.list || s.list.hidden) return;
		const options = s.list.querySelectorAll("[data-complete-value]");
		if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
			ev.preventDefault();
			const n = options.length;
			if (n === 0) return;
			s.active = ev.key === "ArrowDown" ? (s.active + 1) % n : (s.active <= 0 ? n - 1 : s.active - 1);
			options.forEach((o, i) => o.setAttribute("aria-selected", i === s.active ? "true" : "false"));
		} else if (ev.key === "Enter" && s.active >= 0) {
			ev.preventDefault(); // choosing is not submitting
			s.enterUsed = true;
			choose(input, s, options[s.active].textContent);
		} else if (ev.key === "Escape") {
			close(input, s);
		}
	});

	// The keypress of an Enter that chose a suggestion must not submit the
	// form either (a keypress may come apart from its keydown, as input
	// automation sends it).
	document.addEventListener("keypress", (ev) => {
		if (!isCompletable(ev.target) || ev.key !== "Enter") return;
		const s = stateOf(ev.target);
		if (s.enterUsed) ev.preventDefault();
		s.enterUsed = false;
	});
	document.addEventListener("keyup", (ev) => {
		if (isCompletable(ev.target) && ev.key === "Enter") stateOf(ev.target).enterUsed = false;
	});

	// A press on a suggestion keeps the focus in the input, so that the
	// click that follows still finds the list open.
	document.addEventListener("mousedown", (ev) => {
		if (ev.target instanceof Element && ev.target.closest("[data-complete-list]")) ev.preventDefault();
	});

	document.addEventListener("click", (ev) => {
		const option = ev.target instanceof Element && ev.target.closest("[data-complete-value]");
		if (!option) return;
		const list = option.closest("[data-complete-list]");
		const input = list && document.querySelector('[aria-controls="' + list.id + '"]');
		if (input) choose(input, stateOf(input), option.textContent);
	});

	document.addEventListener("focusout", (ev) => {
		if (isCompletable(ev.target)) close(ev.target, stateOf(ev.target));
	});
})();
