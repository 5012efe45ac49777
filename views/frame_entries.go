package views

import (
	"time"

	"github.com/mcp-playground/playground/backend"
)

// frameItem is one entry of a traffic panel: a request with its response
// when both are on the page (Response nil while it has none there), or a
// frame of its own (Exchange false): a notification, a response whose
// request is elsewhere, anything that is not JSON-RPC.
type frameItem struct {
	Frame    backend.Frame
	Exchange bool
	Response *backend.Frame
}

// frameItems pairs the page's requests with their responses, in the
// order of the frames: an entry stands where its request does, and a
// response whose request is on the page is shown only in that entry.
func frameItems(frames []backend.Frame) []frameItem {
	at := map[int64]int{} // request frame id → index in items
	items := make([]frameItem, 0, len(frames))
	for _, f := range frames {
		if isResponse(f) && f.PairID != 0 {
			if i, ok := at[f.PairID]; ok && items[i].Response == nil {
				resp := f
				items[i].Response = &resp
				continue
			}
		}
		if f.RPCType == backend.RPCRequest {
			at[f.ID] = len(items)
			items = append(items, frameItem{Frame: f, Exchange: true})
			continue
		}
		items = append(items, frameItem{Frame: f})
	}
	return items
}

func isResponse(f backend.Frame) bool {
	return f.RPCType == backend.RPCResult || f.RPCType == backend.RPCError
}

// answerStatus names how a response ended, for its entry's badge: "ok",
// "tool-error" (a result with isError) or "rpc-error".
func answerStatus(resp backend.Frame) string {
	switch (backend.HistoryEntry{Response: resp}).Outcome() {
	case backend.OutcomeRPCError:
		return "rpc-error"
	case backend.OutcomeToolError:
		return "tool-error"
	}
	return "ok"
}

// answerLabel is the badge text of a response: OK, isError, or
// "error CODE".
func answerLabel(resp backend.Frame) string {
	if l := outcomeLabel(backend.HistoryEntry{Response: resp}); l != "ok" {
		return l
	}
	return "OK"
}

// entryStatus is an entry's status: its response's, "answered" when the
// response is on another page, "pending" while there is none.
func entryStatus(it frameItem) string {
	switch {
	case it.Response != nil:
		return answerStatus(*it.Response)
	case it.Frame.PairID != 0:
		return "answered"
	}
	return "pending"
}

func entryLabel(it frameItem) string {
	switch {
	case it.Response != nil:
		return answerLabel(*it.Response)
	case it.Frame.PairID != 0:
		return "answered"
	}
	return "pending"
}

// entryLatency is the entry's latency as text, "" while it has none.
func entryLatency(it frameItem) string {
	if it.Frame.LatencyNS > 0 {
		return backend.FormatDuration(time.Duration(it.Frame.LatencyNS))
	}
	if it.Response != nil && it.Response.LatencyNS > 0 {
		return backend.FormatDuration(time.Duration(it.Response.LatencyNS))
	}
	return ""
}

// requestItemOf is the tool or prompt a request names, or the resource
// it reads; "" when it names none or its body is cut short.
func requestItemOf(req backend.Frame) string {
	return backend.HistoryEntry{Request: req}.Item()
}

// replayable reports whether the panel offers to send the request again:
// one the playground sent, on a live session, to someone who may call.
func replayable(req backend.Frame, live, canEdit bool) bool {
	return live && canEdit && req.Direction == "out"
}
