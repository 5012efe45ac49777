package web

import "strings"

// auditActions names, for the audit log, what each state-changing route
// does, keyed by "METHOD PATH" as in routeAccess. A test requires a label
// for every route with an unsafe method; one missing is recorded under
// its "METHOD PATH".
var auditActions = map[string]string{
	"POST /signin":                                          "signin", // signin.failed when refused (signin.go)
	"POST /setup":                                           "setup",
	"POST /signout":                                         "signout",
	"POST /account/password":                                "password.change",
	"POST /account/tokens":                                  "token.create",
	"POST /account/tokens/:token/revoke":                    "token.revoke",
	"POST /account/sessions/end-others":                     "signout.others",
	"POST /users":                                           "user.add",
	"POST /users/:id":                                       "user.update",
	"POST /users/:id/password":                              "user.password",
	"POST /servers":                                         "server.create",
	"POST /servers/:id":                                     "server.update",
	"POST " + serverImportPath + "/preview":                 "server.import_preview",
	"POST " + serverImportPath:                              "server.import",
	"POST /servers/:id/reveal":                              "secret.reveal",
	"POST /servers/:id/delete":                              "server.delete",
	"POST /servers/:id/connect":                             "session.connect",
	"POST /servers/:id/fix":                                 "server.fix",
	"POST /servers/:id/oauth/signin":                        "oauth.signin",
	"POST /servers/:id/oauth/flows/:flow/steps/:step/rerun": "oauth.step_rerun",
	"POST /servers/:id/oauth/signout":                       "oauth.signout",
	"POST /servers/:id/oauth/share":                         "oauth.share",
	"POST /servers/:id/oauth/settings":                      "oauth.settings",
	"POST /sessions/:id/disconnect":                         "session.disconnect",
	"POST /sessions/:id/tools/call":                         "tool.call",
	"POST /sessions/:id/prompts/get":                        "prompt.get",
	"POST /sessions/:id/complete":                           "completion.complete",
	"POST /sessions/:id/resources/read":                     "resource.read",
	"POST /sessions/:id/calls/:call/cancel":                 "call.cancel",
	"POST /sessions/:id/tasks/:task/result":                 "task.result",
	"POST /sessions/:id/tasks/:task/cancel":                 "task.cancel",
	"POST /sessions/:id/inputs/:input":                      "input.answer",
	"POST /sessions/:id/console":                            "console.send",
	"POST /sessions/:id/ping":                               "session.ping",
	"POST /sessions/:id/check":                              "session.check",
	"POST /sessions/:id/resources/template":                 "resource.read_template",
	"POST /sessions/:id/resources/subscribe":                "resource.subscribe",
	"POST /sessions/:id/resources/unsubscribe":              "resource.unsubscribe",
	"POST /sessions/:id/apps/bridge":                        "app.request",
	"POST /sessions/:id/logging/level":                      "logging.set_level",
	"POST " + importPath:                                    "session.import",
	"POST /sessions/:id/exchanges/:exchange/replay":         "exchange.replay",
	"POST /sessions/:id/exchanges/:exchange/edit":           "exchange.edit_replay",
	"POST /frames/:id/reveal":                               "secret.reveal",

	"POST /collections":                                      "collection.create",
	"POST /collections/save":                                 "example.save",
	"POST /collections/import":                               "collection.import",
	"POST /collections/:id":                                  "collection.rename",
	"POST /collections/:id/delete":                           "collection.delete",
	"POST /collections/:id/run":                              "collection.run",
	"POST /collections/:id/runs/:run/results/:result/accept": "example.accept_answer",
	"POST /collections/:id/environments":                     "environment.create",
	"POST /collections/:id/environments/:env":                "environment.update",
	"POST /collections/:id/environments/:env/delete":         "environment.delete",
	"POST /collections/:id/examples/:ex":                     "example.update",
	"POST /collections/:id/examples/:ex/move":                "example.move",
	"POST /collections/:id/examples/:ex/delete":              "example.delete",

	"POST /api/v1/servers":                    "server.create",
	"POST /api/v1/servers/:id/sessions":       "session.connect",
	"DELETE /api/v1/sessions/:id":             "session.disconnect",
	"POST /api/v1/sessions/:id/requests":      "session.request", // refined by requestAction
	"POST /api/v1/sessions/:id/raw":           "session.raw",
	"POST /api/v1/sessions/:id/inputs/:input": "input.answer",
	"POST /api/v1/collections/import":         "collection.import",
}

// requestMethodActions are the actions of JSON API requests
// (POST /api/v1/sessions/:id/requests) that the dashboard's forms also
// make, so that filtering by tool.call finds both.
var requestMethodActions = map[string]string{
	"tools/call":          "tool.call",
	"prompts/get":         "prompt.get",
	"resources/read":      "resource.read",
	"completion/complete": "completion.complete",
	"ping":                "session.ping",
}

// auditAction returns the action of a request to route ("METHOD PATH")
// whose JSON body, if any, has the audit details details (the body
// decoded, as jsonBodyDetails returns it).
func auditAction(route string, details map[string]any) string {
	action, ok := auditActions[route]
	if !ok {
		return route
	}
	if action == "session.request" {
		if refined := requestMethodActions[requestMethod(details)]; refined != "" {
			return refined
		}
	}
	return action
}

// requestMethod is the "method" member of a decoded JSON API request, its
// name matched as the handler's decoding matches it (case aside), or "".
func requestMethod(body map[string]any) string {
	if m, ok := body["method"].(string); ok {
		return m
	}
	for k, v := range body {
		if m, ok := v.(string); ok && strings.EqualFold(k, "method") {
			return m
		}
	}
	return ""
}
