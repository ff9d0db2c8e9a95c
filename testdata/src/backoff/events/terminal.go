package events

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// editInEditor runs the user's editor on path in the foreground: it
// returns when the person at the terminal quits it.
func editInEditor(path string) error {
	editor := os.Getenv("EDITOR")
	if editor == "" {
		return errors.New("EDITOR is not set")
	}
	cmd := exec.Command(editor, path)
	cmd.Stdin = os.Stdin
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// askYes asks a yes/no question on the terminal.
func askYes(question string) (bool, error) {
	fmt.Printf("%s [y/N] ", question)
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil {
		return false, err
	}
	return strings.HasPrefix(strings.ToLower(line), "y"), nil
}

func checkSpec(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		return errors.New("not a JSON object")
	}
	return nil
}

// editSpec opens the editor until the person writes a valid spec or
// gives up: every go-round waits for the person (the question, then the
// editor), and nothing remote has failed. Not reported.
func editSpec(path string) ([]byte, error) {
	for {
		if err := editInEditor(path); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if err := checkSpec(b); err != nil {
			fmt.Printf("invalid spec: %v\n", err)
			ok, _ := askYes("Edit again?")
			if !ok {
				return nil, errors.New("aborted")
			}
			continue
		}
		return b, nil
	}
}

// pinger reaches a remote service.
type pinger interface {
	Ping(ctx context.Context) error
}

// promptRetry asks before it pings again (fmt.Scanln reads the
// terminal). Not reported.
func promptRetry(ctx context.Context, p pinger) error {
	for {
		err := p.Ping(ctx)
		if err == nil {
			return nil
		}
		fmt.Printf("ping failed: %v; press enter to try again, or type q: ", err)
		var answer string
		fmt.Scanln(&answer)
		if answer == "q" {
			return err
		}
	}
}

// askBeforeRetry makes three attempts and asks before each new one: the
// wait between attempts is the person's. Not reported.
func askBeforeRetry(ctx context.Context, p pinger) error {
	var err error
	for i := 0; i < 3; i++ {
		err = p.Ping(ctx)
		if err == nil {
			return nil
		}
		if i < 2 {
			ok, _ := askYes("Ping failed; try again?")
			if !ok {
				return err
			}
		}
	}
	return err
}

// The near miss: telling the person at the terminal (standard output
// and error) waits for no one; the ping goes again at once.
func announceRetry(ctx context.Context, p pinger) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		err = p.Ping(ctx)
		if err == nil {
			return nil
		}
		fmt.Fprintln(os.Stdout, "ping failed, trying again")
		fmt.Fprintln(os.Stderr, err)
	}
	return err
}

// The near miss: asking whether the standard input is a terminal
// (os.Stdin.Fd(), Stat()) reads nothing from it; the ping goes again at
// once.
func pingUntilUp(ctx context.Context, p pinger) error {
	for i := 0; i < 5; i++ { // want `retry loop tries again at once after a failure`
		if err := p.Ping(ctx); err == nil {
			return nil
		}
		if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprintf(os.Stderr, "attempt %d failed (fd %d)\n", i, os.Stdin.Fd())
		}
	}
	return errors.New("down")
}
