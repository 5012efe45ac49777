package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListen opens a subscriptions/listen stream on a modern SDK server:
// the server acknowledges the subscription, its resource updates arrive on
// the stream, and cancelling ctx ends Listen.
func TestListen(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "listen-test", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	server.AddResource(&mcp.Resource{URI: "test://r", Name: "r"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://r", Text: "r"}}}, nil
	})
	srv := newLoopbackServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true}))
	notes := make(chan Notification, 16)
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL + "/mcp"}, Options{Era: EraModern, OnNotification: func(n Notification) {
		select {
		case notes <- n:
		default:
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)

	ctx, cancel := context.WithCancel(testContext(t))
	ended := make(chan error, 1)
	go func() { ended <- c.Listen(ctx, NotificationSubscriptions{ResourceSubscriptions: []string{"test://r"}}) }()

	wait := func(method string) Notification {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case n := <-notes:
				if n.Method == method {
					return n
				}
			case err := <-ended:
				t.Fatalf("Listen ended while waiting for %s: %v", method, err)
			case <-timeout:
				t.Fatalf("no %s", method)
			}
		}
	}
	ack := wait("notifications/subscriptions/acknowledged")
	var acked struct {
		Notifications NotificationSubscriptions `json:"notifications"`
	}
	if err := json.Unmarshal(ack.Params, &acked); err != nil || len(acked.Notifications.ResourceSubscriptions) != 1 || acked.Notifications.ResourceSubscriptions[0] != "test://r" {
		t.Errorf("acknowledged %s (%v)", ack.Params, err)
	}
	if err := server.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: "test://r"}); err != nil {
		t.Fatal(err)
	}
	var updated ResourceUpdated
	if err := json.Unmarshal(wait("notifications/resources/updated").Params, &updated); err != nil || updated.URI != "test://r" {
		t.Errorf("the update names %q (%v)", updated.URI, err)
	}

	cancel()
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Listen after cancel = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Listen did not end when its ctx was cancelled")
	}
}
