package web

import (
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// Results bigger than bigResult are shown in part, so that the page stays
// small and quick: at most inlineBudget bytes of text and base64 payload
// in all, and at most maxShownBlocks content blocks. The links of a cut
// result open or download the stored response frame, which holds it all.
const (
	bigResult      = 1 << 20
	inlineBudget   = 256 << 10
	maxShownBlocks = 200
)

// budget is how much more of a result may be put in the page; an
// unlimited budget (a result of at most bigResult) never runs out.
type budget struct {
	limited bool
	left    int
}

func budgetFor(size int) *budget { return &budget{limited: size > bigResult, left: inlineBudget} }

// take returns how many of n bytes may be shown, and counts them.
func (b *budget) take(n int) int {
	if !b.limited {
		return n
	}
	n = min(n, b.left)
	b.left -= n
	return n
}

// fits reports whether n bytes may be shown whole, and counts them if so.
func (b *budget) fits(n int) bool {
	if b.limited && n > b.left {
		return false
	}
	b.take(n)
	return true
}

// outcomeOf turns a tools/call answer into what the user sees. tool is
// the tool called: its outputSchema judges the structuredContent (a zero
// tool, when which one is unknown, gets no verdict).
// sessionID is the live session the result's resource links are read on.
func outcomeOf(res backend.CallResult, err error, tool backend.Tool, sessionID int64) *views.ToolOutcome {
	if errors.Is(err, backend.ErrCallCancelled) {
		return &views.ToolOutcome{Kind: views.OutcomeCancelled, Latency: res.Latency}
	}
	size := len(res.Result)
	if size <= bigResult {
		return toolOutcome(requestOutcome(res, err), res, tool, sessionID)
	}
	// Too big to show whole: requestOutcome would pretty-print it all.
	o := &views.ToolOutcome{Kind: views.OutcomeResult, Latency: res.Latency}
	return toolOutcome(o, res, tool, sessionID)
}

// toolOutcome fills o, the outcome of a request, with what a tools/call
// result shows.
func toolOutcome(o *views.ToolOutcome, res backend.CallResult, tool backend.Tool, sessionID int64) *views.ToolOutcome {
	o.FrameID, o.SessionID, o.Size = res.ResponseFrameID, sessionID, len(res.Result)
	if o.Kind != views.OutcomeResult {
		return o
	}
	var r backend.CallToolResult
	if uerr := json.Unmarshal(res.Result, &r); uerr != nil {
		o.Kind, o.Message = views.OutcomeFailure, "The server's result is not a valid tools/call result: "+uerr.Error()
		return o
	}
	if r.IsError {
		o.Kind = views.OutcomeToolError
	}
	if tool.Name != "" {
		v := backend.CheckStructuredContent(tool.OutputSchema, r.StructuredContent, r.IsError)
		o.Verdict = &v
	}
	b := budgetFor(o.Size)
	o.Cut = b.limited
	if b.fits(len(r.StructuredContent)) {
		o.Structured = prettyJSON(r.StructuredContent)
	}
	if b.fits(len(r.Meta)) {
		o.Meta = prettyJSON(r.Meta)
	}
	for i, c := range r.Content {
		if b.limited && i >= maxShownBlocks {
			o.Hidden = len(r.Content) - i
			break
		}
		o.Content = append(o.Content, contentView(c, b))
	}
	return o
}

// contentView shows one content block within b.
func contentView(c backend.Content, b *budget) views.ContentView {
	v := views.ContentView{
		Type: c.Type, MimeType: c.MimeType, URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description,
		Size: c.Size, Annotations: c.Annotations, Meta: prettyJSON(c.Meta),
	}
	switch c.Type {
	case "text":
		v.Text = textView(c.Text, c.MimeType, b)
	case "image", "audio":
		v.DataSize = len(c.Data)
		if b.fits(len(c.Data)) {
			v.Data = c.Data
		}
	case "resource_link":
	case "resource":
		var rc backend.ResourceContents
		if err := json.Unmarshal(c.Resource, &rc); err == nil {
			r := resourceContentsView(rc, b)
			v.Resource = &r
			break
		}
		fallthrough
	default:
		v.Detail = detailJSON(c, b)
	}
	return v
}

// detailJSON is a block without a view of its own, as pretty JSON when
// it fits in b.
func detailJSON(c backend.Content, b *budget) string {
	detail, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err.Error()
	}
	if !b.fits(len(detail)) {
		return "(too big to show here)"
	}
	return string(detail)
}

// resourceContentsView shows resource contents within b.
func resourceContentsView(rc backend.ResourceContents, b *budget) views.ResourceContentsView {
	v := views.ResourceContentsView{URI: rc.URI, MimeType: rc.MimeType, Meta: prettyJSON(rc.Meta)}
	if rc.Blob == "" {
		t := textView(rc.Text, rc.MimeType, b)
		v.Text = &t
		return v
	}
	v.BlobSize = len(rc.Blob)
	if b.fits(len(rc.Blob)) {
		v.Blob = rc.Blob
	}
	return v
}

// textView shows text within b: whole, rendered as Markdown when it is
// Markdown (see isMarkdown; mimeType is its declared type, if any), or
// only its head when b runs out.
func textView(text, mimeType string, b *budget) views.TextView {
	n := b.take(len(text))
	for n > 0 && n < len(text) && !utf8.RuneStart(text[n]) {
		n--
	}
	v := views.TextView{Text: text[:n], Cut: len(text) - n, Total: len(text)}
	if v.Cut == 0 && isMarkdown(text, mimeType) {
		v.HTML = renderMarkdown(text)
	}
	return v
}
