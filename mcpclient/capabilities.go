package mcpclient

import "encoding/json"

// ClientCapabilities is what a client declares it can answer, in
// initialize and, in the modern era, in each request's _meta. A nil member
// is not declared. Tasks is kept raw: its shape differs between eras and
// the Client fills it in for the tasks it hosts (tasks_host.go). The
// members are in the order of their names, as a map of them is written.
type ClientCapabilities struct {
	Elicitation *ElicitationCapability     `json:"elicitation,omitempty"`
	Extensions  map[string]json.RawMessage `json:"extensions,omitempty"`
	Roots       *RootsCapability           `json:"roots,omitempty"`
	Sampling    *SamplingCapability        `json:"sampling,omitempty"`
	Tasks       json.RawMessage            `json:"tasks,omitempty"`
}

// SamplingCapability declares sampling/createMessage; Context and Tools,
// when set, declare support for includeContext and for tools in sampling.
type SamplingCapability struct {
	Context *struct{} `json:"context,omitempty"`
	Tools   *struct{} `json:"tools,omitempty"`
}

// ElicitationCapability declares elicitation/create in the modes set.
type ElicitationCapability struct {
	Form *struct{} `json:"form,omitempty"`
	URL  *struct{} `json:"url,omitempty"`
}

// BothElicitModes declares elicitation in form and URL mode.
func BothElicitModes() *ElicitationCapability {
	return &ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
}

// RootsCapability declares roots/list; ListChanged promises
// notifications/roots/list_changed when the roots change.
type RootsCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// JSON returns the capabilities as the JSON object a Client declares.
func (c ClientCapabilities) JSON() json.RawMessage {
	b, err := marshal(c)
	if err != nil { // only a raw member that is not JSON gets here
		return json.RawMessage(`{}`)
	}
	return b
}
