// Package reg keeps the hooks it is given, for package hooks.
package reg

// Registry runs its hooks when it is closed.
type Registry struct{ hooks map[string]func() error }

// On keeps h to run at Close (its KeepsFuncFact).
func (r *Registry) On(name string, h func() error) { r.hooks[name] = h }

// Now runs f at once: no fact.
func (r *Registry) Now(f func() error) error { return f() }
