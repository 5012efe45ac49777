package main

import "github.com/chromedp/chromedp"

// callForSaving calls tool from its card with args (argument name →
// value typed into its field), waits for its result and returns the
// selector of the card's Save to collection control.
func (p *e2ePage) callForSaving(tool string, args map[string]string) string {
	p.t.Helper()
	card := e2eCard(tool)
	p.openTool(tool)
	for k, v := range args {
		p.setValue(card+` [name="arg.`+k+`"]`, v)
	}
	p.submitTool(tool)
	p.wantOutcome(tool, "result")
	return card + ` [data-testid="save-to-collection"]`
}

// fillSaveToCollection opens the Save to collection control save (a
// selector for it within a tool card or an exchange's page) and fills it
// in: the collection typed as a new one when isNew, else picked from the
// list, and the example's name.
func (p *e2ePage) fillSaveToCollection(save, collection, name string, isNew bool) {
	p.t.Helper()
	p.do("open Save to collection", save,
		chromedp.Click(chromedp.CSS(save+` summary`)),
		chromedp.WaitVisible(chromedp.CSS(save+` [data-testid="save-example-form"]`)))
	if isNew {
		p.typeInto(save+` [data-testid="save-new-collection"]`, collection)
	} else {
		p.choose(save+` [data-testid="save-collection"]`, collection)
	}
	p.typeInto(save+` [data-testid="save-name"]`, name)
}

// submitSaveToCollection saves the example filled in by
// fillSaveToCollection and returns the message saying where it went.
func (p *e2ePage) submitSaveToCollection(save string) string {
	p.t.Helper()
	p.do("save the example", save,
		chromedp.Click(chromedp.CSS(save+` [data-testid="save-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(save+` [data-testid="saved-example"]`)))
	return p.text(save + ` [data-testid="saved-example"]`)
}

// saveToCollection fills in and submits Save to collection.
func (p *e2ePage) saveToCollection(save, collection, name string, isNew bool) string {
	p.t.Helper()
	p.fillSaveToCollection(save, collection, name, isNew)
	return p.submitSaveToCollection(save)
}
