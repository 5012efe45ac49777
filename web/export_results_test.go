package web

// Exported for the tests of result rendering.
var (
	IsMarkdown     = isMarkdown
	RenderMarkdown = renderMarkdown
	OutcomeOf      = outcomeOf
)
