package registry_test

import (
	"errors"
	"fmt"

	"github.com/agenteval/agenteval/registry"
)

// greeting is a plugin: a value that names itself.
type greeting struct{ name, text string }

// Every extension point of agenteval is a Registry: plugins are values,
// registering twice is an error, and an unknown name comes back with the
// nearest known one.
func ExampleRegistry() {
	greetings := registry.New("greeting", func(g *greeting) string { return g.name }, func(g *greeting) error {
		if g.text == "" {
			return errors.New("no text")
		}
		return nil
	})
	fmt.Println(greetings.Register(&greeting{"hello", "Hello!"}, &greeting{"howdy", "Howdy!"}))
	fmt.Println(errors.Is(greetings.Register(&greeting{"hello", "Hi!"}), registry.ErrDuplicate))
	fmt.Println(greetings.Register(&greeting{"silent", ""}) != nil)
	g, _ := greetings.Get("howdy")
	fmt.Println(g.text, greetings.Names())
	_, err := greetings.Get("helo")
	fmt.Println(errors.Is(err, registry.ErrUnknown))
	fmt.Println(err)
	// Output:
	// <nil>
	// true
	// true
	// Howdy! [hello howdy]
	// true
	// unknown greeting "helo"; did you mean "hello"? (known: hello, howdy)
}
