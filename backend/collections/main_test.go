package collections_test

import (
	"os"
	"testing"

	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/sdktest"
)

func TestMain(m *testing.M) {
	sdktest.ServeIfAsked()
	os.Exit(m.Run())
}

// newCollections returns the collections service over e, closed when the
// test ends.
func newCollections(tb testing.TB, e *backendtest.Env) *collections.Service {
	cols := collections.New(e.DB, e.DB, e.DB, e.Pool, backendtest.Logger(tb))
	tb.Cleanup(cols.Close)
	return cols
}
