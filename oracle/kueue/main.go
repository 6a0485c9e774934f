// Command kueue-oracle replays a Quota Lab Kueue-model scenario through the real Kueue
// scheduler (SPEC 12.1) and prints its decisions:
//
//	kueue-oracle FILE|-          one scenario; prints {"kueue_version": ..., "events": [...]}
//	kueue-oracle --lines         JSON lines in, one answer per line out ({"error": ...} for a
//	                             scenario it cannot replay), for differential tests
//
// It is a test instrument: the engine never depends on it.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	ctrl "sigs.k8s.io/controller-runtime"
)

// KueueVersion is the Kueue release linked in (go.mod pins it).
var KueueVersion = func() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == "sigs.k8s.io/kueue" {
				return m.Version
			}
		}
	}
	return "unknown"
}()

func ctrlLog() logr.Logger { return logr.Discard() }

// answer replays one scenario. A panic inside Kueue (v0.17.0's fair-sharing preemption
// dereferences a nil cohort for some ClusterQueues, docs/KUEUE-FIDELITY.md) is an answer
// too, an error naming where Kueue stopped: the scenario is not replayable, and the next
// one is replayed by the same process (each replay builds its own scheduler and caches).
func answer(text []byte) (_ any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("Kueue %s panicked (%v) in %s", KueueVersion, r, panicSite(debug.Stack()))
		}
	}()
	sc, err := ParseScenario(text)
	if err != nil {
		return nil, err
	}
	out, err := Replay(sc)
	if err != nil {
		return nil, err
	}
	stampSeconds(out.Events)
	return out, nil
}

// stampSeconds sets each event's t_s from its time in ms, as the result JSON writes it.
func stampSeconds(events []Event) {
	for i := range events {
		events[i].T = seconds(events[i].TimeMs)
	}
}

// lineAnswer is --lines mode's answer to one scenario: the output, or {"error": ...}; for a
// scenario whose cycles did not settle at one instant, also that instant
// ("not_settled_at_s") and the decisions before it ("events"), which can be compared.
func lineAnswer(text []byte) any {
	a, err := answer(text)
	var ns *NotSettled
	switch {
	case errors.As(err, &ns):
		stampSeconds(ns.Before)
		return map[string]any{"error": err.Error(), "not_settled_at_s": seconds(ns.AtMs), "events": ns.Before}
	case err != nil:
		return map[string]string{"error": err.Error()}
	}
	return a
}

// panicSite is the Kueue function a panic's stack (runtime/debug.Stack, read in the
// deferred recover) came from, with its file and line: the innermost frame in Kueue's own
// packages, else the innermost frame after the panic's.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	first := ""
	afterPanic := false
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if strings.HasPrefix(fn, "panic(") {
			afterPanic = true
			continue
		}
		if !afterPanic || strings.HasPrefix(fn, "\t") || fn == "" {
			continue
		}
		file := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(file, " +0x"); j >= 0 {
			file = file[:j]
		}
		if k := strings.LastIndex(file, "/pkg/"); k >= 0 {
			file = file[k+1:]
		}
		if j := strings.LastIndex(fn, "("); j > 0 {
			fn = fn[:j]
		}
		site := fn + " (" + file + ")"
		if strings.HasPrefix(fn, "sigs.k8s.io/kueue/") {
			return strings.TrimPrefix(site, "sigs.k8s.io/kueue/")
		}
		if first == "" {
			first = site
		}
	}
	if first == "" {
		return "an unknown place"
	}
	return first
}

func main() {
	if v := os.Getenv("QUOTALAB_ORACLE_LOG"); v == "" {
		ctrl.SetLogger(logr.Discard())
	} else {
		level := 0
		fmt.Sscan(v, &level)
		ctrl.SetLogger(funcr.New(func(prefix, args string) { fmt.Fprintln(os.Stderr, prefix, args) }, funcr.Options{Verbosity: level}))
	}
	args := os.Args[1:]
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: kueue-oracle FILE|-   or   kueue-oracle --lines")
		os.Exit(2)
	}
	if args[0] == "--lines" {
		in := bufio.NewScanner(os.Stdin)
		in.Buffer(make([]byte, 1<<20), 1<<30)
		out := bufio.NewWriter(os.Stdout)
		enc := json.NewEncoder(out)
		for in.Scan() {
			_ = enc.Encode(lineAnswer(in.Bytes()))
			_ = out.Flush()
		}
		return
	}
	var text []byte
	var err error
	if args[0] == "-" {
		text, err = io.ReadAll(os.Stdin)
	} else {
		text, err = os.ReadFile(args[0])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(2)
	}
	a, err := answer(text)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(a)
}
