package backend

import (
	"encoding/json"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// SampleReply is what a person playing the client's model answers to a
// sampling/createMessage request: one text block from the assistant.
type SampleReply struct {
	Text       string
	Model      string // "" stands for DefaultSampleModel
	StopReason string // "" stands for "endTurn"
}

// DefaultSampleModel names the model when the person names none.
const DefaultSampleModel = "playground-user"

// SampleStopReasons are the stop reasons the spec names, in the order a
// reply form offers them.
var SampleStopReasons = []string{"endTurn", "stopSequence", "maxTokens"}

// ParseSampling decodes sampling/createMessage params. It fails only when
// params are not the spec's shape at all; a person still sees them raw.
func ParseSampling(params json.RawMessage) (mcpclient.CreateMessageParams, error) {
	var p mcpclient.CreateMessageParams
	if err := json.Unmarshal(params, &p); err != nil {
		return mcpclient.CreateMessageParams{}, Errorf(EInvalid, "The sampling request is not in the spec's shape: %v", err)
	}
	return p, nil
}

// ReplySample answers sampling request id with reply, as an assistant
// message, from the person by. An empty text is refused with an EInvalid
// *Error and sends nothing.
func (in *Inbox) ReplySample(id int64, reply SampleReply, by string) error {
	if strings.TrimSpace(reply.Text) == "" {
		return Errorf(EInvalid, "Write the reply the model would give.")
	}
	res := mcpclient.CreateMessageResult{
		Message:    mcpclient.SamplingMessage{Role: "assistant", Content: []mcpclient.SamplingBlock{{Type: "text", Text: reply.Text}}},
		Model:      cmpOr(strings.TrimSpace(reply.Model), DefaultSampleModel),
		StopReason: cmpOr(strings.TrimSpace(reply.StopReason), "endTurn"),
	}
	return in.answerWith(id, res, by)
}

// DeclineSample refuses sampling request id as the spec says a client
// does when its user rejects the request: JSON-RPC error -1.
func (in *Inbox) DeclineSample(id int64, by string) error {
	return in.Refuse(id, &mcpclient.RPCError{Code: mcpclient.CodeUserRejected, Message: "User rejected sampling request"}, by)
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// Sampling shapes, named here so that web and views depend on the backend
// only.
type (
	CreateMessageParams = mcpclient.CreateMessageParams
	SamplingMessage     = mcpclient.SamplingMessage
	SamplingBlock       = mcpclient.SamplingBlock
	ModelPreferences    = mcpclient.ModelPreferences
)
