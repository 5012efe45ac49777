package benchfig

import (
	"fmt"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

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
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"query":"frame %d","limit":10}}}`, id, seq)
	case 1:
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%d,"progress":%d,"total":100}}`, id, seq%100)
	case 2:
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"working on frame %d <of the session> & more"}}`, seq)
	default:
		f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"result %d: lorem ipsum dolor sit amet, consectetur adipiscing elit"}],"isError":false}}`, id, seq)
	}
	return f
}
