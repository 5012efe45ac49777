package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// JSON-RPC error codes that tell an era.
const (
	codeMethodNotFound             = -32601
	codeUnsupportedProtocolVersion = -32022
)

// eraMismatch explains err when it says the server speaks the other era:
// a modern server/discover refused or answered with legacy versions only,
// or a legacy initialize refused by a server of the modern versions.
// It reports whether it did.
func eraMismatch(d *Diagnosis, era mcpclient.Era, err error) bool {
	var noModern *mcpclient.NoModernVersionError
	var rpc *mcpclient.RPCError
	switch {
	case era == mcpclient.EraModern && errors.As(err, &noModern):
		d.Summary = "The server speaks only the legacy protocol versions (" + strings.Join(noModern.Supported, ", ") + "), and the connection asked for the modern era."
		d.find("server/discover", "supported versions: "+strings.Join(noModern.Supported, ", "))
	case era == mcpclient.EraModern && errors.As(err, &rpc) && rpc.Code == codeMethodNotFound:
		d.Summary = "The server does not know server/discover: it speaks the legacy era (the initialize handshake), and the connection asked for the modern era."
		d.find("server/discover", rpc.Error())
	case era == mcpclient.EraLegacy && errors.As(err, &rpc) && (rpc.Code == codeMethodNotFound || rpc.Code == codeUnsupportedProtocolVersion):
		d.Summary = "The server refused the initialize handshake: it speaks the modern era (2026-07-28), and the connection asked for the legacy era."
		d.find("initialize", rpc.Error()+dataText(rpc.Data))
		d.suggest("Connect in the modern era.", &Change{Era: mcpclient.EraModern})
		d.suggest("Or let the playground probe the era (auto).", &Change{Era: mcpclient.EraAuto})
		return true
	default:
		return false
	}
	legacyEras(d)
	return true
}

// legacyEras suggests the legacy era, then auto.
func legacyEras(d *Diagnosis) {
	d.suggest("Connect in the legacy era.", &Change{Era: mcpclient.EraLegacy})
	d.suggest("Or let the playground probe the era (auto).", &Change{Era: mcpclient.EraAuto})
}

// timeoutEras suggests the era that a silent server may be waiting for.
func timeoutEras(d *Diagnosis, era mcpclient.Era) {
	switch era {
	case mcpclient.EraModern:
		d.suggest("A legacy server may ignore server/discover: connect in the legacy era.", &Change{Era: mcpclient.EraLegacy})
	case mcpclient.EraLegacy:
		d.suggest("A modern server may ignore initialize: connect in the modern era.", &Change{Era: mcpclient.EraModern})
	}
}

func dataText(data json.RawMessage) string {
	if len(data) == 0 || string(data) == "null" {
		return ""
	}
	return " (data: " + excerpt(data) + ")"
}

// isTimeout reports whether err is a deadline passing, in a context or on
// the network.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
