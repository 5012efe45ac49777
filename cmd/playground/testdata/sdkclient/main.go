// Command sdkclient is the yardstick of BenchmarkCLI: the least a client
// built on the official Go MCP SDK does to make one tools/call over
// Streamable HTTP and print the result. It lives under testdata so that
// it is no product package; the benchmark builds it with go build.
//
//	sdkclient URL TOOL ARGUMENTS-JSON
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkclient:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: sdkclient URL TOOL ARGUMENTS-JSON")
	}
	var arguments map[string]any
	if err := json.Unmarshal([]byte(args[2]), &arguments); err != nil {
		return err
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "sdkclient", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: args[0]}, nil)
	if err != nil {
		return err
	}
	defer session.Close()
	result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: args[1], Arguments: arguments})
	if err != nil {
		return err
	}
	out, err := json.MarshalIndent(result, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Println(string(out))
	return err
}
