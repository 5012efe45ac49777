package backend

import (
	"errors"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// StoredAnswer rebuilds, from a recorded response frame read whole, the
// CallResult that CallWith returned for it: its result or JSON-RPC error,
// latency and frame ids. It fails when the body is not a JSON-RPC
// response.
func StoredAnswer(f Frame) (CallResult, error) {
	env, err := mcpclient.DecodeEnvelope(f.Body)
	if err != nil {
		return CallResult{}, err
	}
	res := CallResult{Latency: time.Duration(f.LatencyNS), RequestFrameID: f.PairID, ResponseFrameID: f.ID}
	switch f.RPCType {
	case RPCResult:
		res.Result = env.Result
	case RPCError:
		var ok bool
		if res.Error, ok = env.RPCError(); !ok {
			return CallResult{}, errors.New("its error member is not a JSON-RPC error object")
		}
	default:
		return CallResult{}, errors.New("it is not a response")
	}
	return res, nil
}
