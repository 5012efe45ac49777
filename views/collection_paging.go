package views

import (
	"net/url"
	"strconv"

	"github.com/mcp-playground/playground/backend/collections"
)

// CollectionsURL is the address of the page of collections named after
// after ("" for the first page).
func CollectionsURL(after string) string {
	if after == "" {
		return "/collections"
	}
	return "/collections?" + url.Values{"after": {after}}.Encode()
}

// CollectionPageURL is the address of a collection's page showing the
// examples placed after examplesAfter and the runs older than runsBefore
// (0 for the first page of either).
func CollectionPageURL(id int64, examplesAfter int, runsBefore int64) string {
	q := url.Values{}
	if examplesAfter > 0 {
		q.Set("examples_after", strconv.Itoa(examplesAfter))
	}
	if runsBefore > 0 {
		q.Set("runs_before", strconv.FormatInt(runsBefore, 10))
	}
	if len(q) == 0 {
		return collectionURL(id)
	}
	return collectionURL(id) + "?" + q.Encode()
}

func collectionsPagerLinks(list collections.Page[collections.Collection], after string) []pagerLink {
	var links []pagerLink
	if after != "" {
		links = append(links, pagerLink{"First page", CollectionsURL(""), "collections-first"})
	}
	if list.More {
		links = append(links, pagerLink{"Next page", CollectionsURL(list.Items[len(list.Items)-1].Name), "collections-next"})
	}
	return links
}

func examplesPagerLinks(d CollectionPageData) []pagerLink {
	var links []pagerLink
	if d.ExamplesAfter > 0 {
		links = append(links, pagerLink{"First examples", CollectionPageURL(d.Collection.ID, 0, d.RunsBefore), "examples-first"})
	}
	if d.Examples.More {
		last := d.Examples.Items[len(d.Examples.Items)-1]
		links = append(links, pagerLink{"More examples", CollectionPageURL(d.Collection.ID, last.Position, d.RunsBefore), "examples-next"})
	}
	return links
}

func runsPagerLinks(d CollectionPageData) []pagerLink {
	var links []pagerLink
	if d.RunsBefore > 0 {
		links = append(links, pagerLink{"Newest runs", CollectionPageURL(d.Collection.ID, d.ExamplesAfter, 0), "runs-newest"})
	}
	if d.Runs.More {
		last := d.Runs.Items[len(d.Runs.Items)-1]
		links = append(links, pagerLink{"Older runs", CollectionPageURL(d.Collection.ID, d.ExamplesAfter, last.ID), "runs-older"})
	}
	return links
}
