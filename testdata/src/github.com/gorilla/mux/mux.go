// Package mux is a stub of github.com/gorilla/mux for the fixtures: a
// router that can be asked which route a request matches.
package mux

import "net/http"

type Router struct{ routes []*Route }

type Route struct{ path string }

type RouteMatch struct {
	Route   *Route
	Handler http.Handler
}

func NewRouter() *Router { return &Router{} }

func (r *Router) Match(req *http.Request, match *RouteMatch) bool {
	for _, rt := range r.routes {
		if rt.Match(req, match) {
			return true
		}
	}
	return false
}

func (r *Route) Match(req *http.Request, match *RouteMatch) bool {
	if req.URL.Path == r.path {
		match.Route = r
		return true
	}
	return false
}

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {}
