package main

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserViewerReadsWithoutEditorControls has the admin save a demo
// tool call into a collection, then signs a viewer in, in another browser:
// the collection's page and the demo server's Resources section show the
// viewer what they hold (an example's params, a resource's details, a
// template's variables, disabled) with no control that would be refused,
// and notes where an editor's control would be. With
// PLAYGROUND_SCREENSHOT_DIR set it saves viewer-collection and
// viewer-resources. It needs PLAYGROUND_CHROMIUM.
func TestBrowserViewerReadsWithoutEditorControls(t *testing.T) {
	srv, admin := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	admin.connectDemoServer(srv.URL)
	section := e2eEval[string](admin, "read the server's address", "", `location.origin + location.pathname`)
	save := admin.callForSaving("weather", map[string]string{"city": "Paris"})
	admin.saveToCollection(save, "shared", "paris", true)

	srv.addUser(t, "vera", "viewer")
	ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
	t.Cleanup(cancel)
	viewer := e2eOpenBrowser(t, ctx, e2eChromium(t))
	viewer.signInAs(srv, "vera")

	// editorControls counts what a viewer must not be offered in the page:
	// forms that post, htmx posts, and completion inputs.
	const editorControls = `document.querySelectorAll('form[method="post"]:not(.signout), [hx-post], [data-complete-ref]').length`

	viewer.do("open the collection", "main", chromedp.Navigate(srv.URL+"/collections"),
		chromedp.Click(chromedp.CSS(`[data-testid="collection-row"] a`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="example"]`)))
	if n := e2eEval[int](viewer, "count editor controls on the collection's page", "main", editorControls); n != 0 {
		t.Errorf("the viewer's collection page has %d editor controls:\n%s", n, viewer.dump("main"))
	}
	viewer.do("open the example's params", `[data-testid="example"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="example-request"] summary`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="example-params"]`)))
	if got := viewer.text(`[data-testid="example-params"]`); !strings.Contains(got, "Paris") {
		t.Errorf("the example's params as a viewer sees them: %q", got)
	}
	if !e2eEval[bool](viewer, "look for the run note", "", `!!document.querySelector('[data-testid="viewer-no-run"]')`) {
		t.Error("the viewer's collection page does not say who may run it")
	}
	if shots != "" {
		viewer.screenshot(shots, "viewer-collection", `[data-testid="run-card"]`)
	}

	viewer.do("open a resource", "main", chromedp.Navigate(section+"/resources?uri="+url.QueryEscape("demo://readme")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource"]`)))
	if !e2eEval[bool](viewer, "look for the read note", `[data-testid="resource"]`, `!!document.querySelector('[data-testid="viewer-no-read"]')`) {
		t.Error("the viewer's resource card does not say who may read it")
	}
	if n := e2eEval[int](viewer, "count editor controls on the resource's page", "main", editorControls); n != 0 {
		t.Errorf("the viewer's resource page has %d editor controls:\n%s", n, viewer.dump("main"))
	}
	if shots != "" {
		viewer.screenshot(shots, "viewer-resources", `[data-testid="resource"]`)
	}
	viewer.do("open a template", "main", chromedp.Navigate(section+"/resources?template="+url.QueryEscape("demo://users/{id}")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="template"]`)))
	if !e2eEval[bool](viewer, "check the template's variables are read-only", `[data-testid="template"]`,
		`document.querySelector('[data-testid="template-form"] fieldset').disabled && !!document.querySelector('[data-testid="viewer-no-template-read"]')`) {
		t.Errorf("the viewer can fill in the template:\n%s", viewer.dump(`[data-testid="template"]`))
	}
	if n := e2eEval[int](viewer, "count editor controls on the template's page", "main", editorControls); n != 0 {
		t.Errorf("the viewer's template page has %d editor controls:\n%s", n, viewer.dump("main"))
	}
}
