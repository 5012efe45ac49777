package benchfig

import (
	"fmt"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Handshake is the legacy initialize exchange a synthetic session starts
// with, at version 2025-11-25, before its SessionFrames: with it the
// protocol linter judges them by that version's schema.
func Handshake() []mcpclient.Frame {
	at := time.Now()
	return []mcpclient.Frame{
		{Time: at, Kind: mcpclient.KindMessage, Direction: mcpclient.Outbound, Body: []byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)},
		{Time: at, Kind: mcpclient.KindMessage, Direction: mcpclient.Inbound, Body: []byte(`{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"bench","version":"1"}}}`)},
		{Time: at, Kind: mcpclient.KindMessage, Direction: mcpclient.Outbound, Body: []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)},
	}
}

// SessionFrame is the seq-th frame of a busy synthetic session, the same
// mix for every benchmark that records frames: a tools/call request, a
// progress notification, a log message (with characters a page must
// escape), then the request's result.
func SessionFrame(seq int) mcpclient.Frame {
	id := seq / 4
	f := mcpclient.Frame{Time: time.Now(), Kind: mcpclient.KindMessage, Direction: mcpclient.Inbound}
	switch seq % 4 {
	case 0:
		f.Direction = mcpclient.Outbound
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"query":"frame %d","limit":10},"_meta":{"progressToken":%d}}}`, id, seq, id)
	case 1:
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%d,"progress":%d,"total":100}}`, id, seq%100)
	case 2:
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"working on frame %d <of the session> & more"}}`, seq)
	default:
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"result %d: lorem ipsum dolor sit amet, consectetur adipiscing elit"}],"isError":false}}`, id, seq)
	}
	return f
}
