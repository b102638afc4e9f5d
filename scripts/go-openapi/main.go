// Validates recorded answers of the server against docs/openapi-3.0.json with kin-openapi, the
// loader and validator Go's oapi-codegen is built on: the 3.0 rendering as a Go stack reads it.
// Run by scripts/check-go-openapi.sh (Debian's golang-go and golang-github-getkin-kin-openapi-dev,
// GOPATH mode, no module download).
//
// Usage: go run main.go <openapi-3.0.json> <exchanges.json>
// where exchanges.json is [{ "method", "path", "status", "headers": {}, "text" }], as
// scripts/check-generators.ts --exchanges writes them.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

type exchange struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Text    *string           `json:"text"`
}

func main() {
	ctx := context.Background()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(os.Args[1])
	if err != nil {
		fail("load: %v", err)
	}
	if err := doc.Validate(ctx); err != nil {
		fail("validate the document: %v", err)
	}
	// The document's server is https://api.siteaudit.dev; the answers were recorded on a local one.
	doc.Servers = openapi3.Servers{{URL: "http://localhost"}}
	// kin-openapi 0.110 (Debian's) checks a response header's text against its schema without
	// decoding it ("60" is no integer): the headers are set aside here and checked below, decoded.
	headersOf := map[*openapi3.Response]openapi3.Headers{}
	for _, item := range doc.Paths {
		for _, operation := range item.Operations() {
			for _, ref := range operation.Responses {
				if ref.Value != nil && ref.Value.Headers != nil {
					headersOf[ref.Value] = ref.Value.Headers
					ref.Value.Headers = nil
				}
			}
		}
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		fail("router: %v", err)
	}
	raw, err := os.ReadFile(os.Args[2])
	if err != nil {
		fail("read: %v", err)
	}
	var exchanges []exchange
	if err := json.Unmarshal(raw, &exchanges); err != nil {
		fail("parse: %v", err)
	}
	// Security is checked by the server, not here: any bearer token passes.
	options := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}
	checked, violations := 0, 0
	for _, x := range exchanges {
		request, _ := http.NewRequest(x.Method, "http://localhost"+x.Path, nil)
		route, params, err := router.FindRoute(request)
		if err != nil {
			continue // not an operation of the document (/openapi.json, /docs, a 405 probe)
		}
		header := http.Header{}
		for name, value := range x.Headers {
			header.Set(name, value)
		}
		body := ""
		if x.Text != nil {
			body = *x.Text
		}
		input := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: request, PathParams: params, Route: route, Options: options},
			Status:                 x.Status,
			Header:                 header,
			Body:                   io.NopCloser(bytes.NewBufferString(body)),
			Options:                options,
		}
		if x.Text == nil && !strings.HasPrefix(header.Get("Content-Type"), "application/json") && !strings.HasPrefix(header.Get("Content-Type"), "application/problem+json") {
			// A file or an empty answer: its status and headers are checked, not its bytes.
			input.Options = &openapi3filter.Options{ExcludeResponseBody: true, IncludeResponseStatus: true}
		}
		checked++
		if response := route.Operation.Responses.Get(x.Status); response != nil && response.Value != nil {
			if problem := checkHeaders(headersOf[response.Value], header); problem != "" {
				violations++
				fmt.Printf("%s %s %d: %s\n", x.Method, x.Path, x.Status, problem)
			}
		}
		if err := openapi3filter.ValidateResponse(ctx, input); err != nil {
			violations++
			fmt.Printf("%s %s %d: %s\n", x.Method, x.Path, x.Status, firstLines(err.Error(), 6))
		}
	}
	fmt.Printf("kin-openapi: %d answers checked against the 3.0 document, %d violations\n", checked, violations)
	if violations > 0 {
		os.Exit(1)
	}
}

// checkHeaders validates the documented headers of an answer, each decoded by its schema's type.
func checkHeaders(documented openapi3.Headers, header http.Header) string {
	for name, ref := range documented {
		text := header.Get(name)
		if text == "" {
			if ref.Value.Required {
				return fmt.Sprintf("response header %q missing", name)
			}
			continue
		}
		schema := ref.Value.Schema.Value
		var value any = text
		var err error
		switch schema.Type {
		case "integer":
			value, err = strconv.ParseInt(text, 10, 64)
			if err == nil {
				value = float64(value.(int64))
			}
		case "number":
			value, err = strconv.ParseFloat(text, 64)
		case "boolean":
			value, err = strconv.ParseBool(text)
		}
		if err == nil {
			err = schema.VisitJSON(value)
		}
		if err != nil {
			return fmt.Sprintf("response header %q (%q) doesn't match the schema: %s", name, text, firstLines(err.Error(), 3))
		}
	}
	return ""
}

func firstLines(text string, n int) string {
	lines := strings.Split(text, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n    ")
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(2)
}
