// SPDX-License-Identifier: GPL-2.0
//
// tp-go: a Go program (static, its own runtime: raw clone for threads, an alternate signal
// stack per thread, goroutines on small stacks of their own) run by credbox under
// tests/vm/transparent/tp-go.ini on the transparent grant /srv/tp/drive. Goroutines read,
// stat and list the tree at once; one writes a file. Prints "ok - ..." / "not ok - ...".
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

const tree = "/srv/tp/drive"

func check(ok bool, format string, args ...interface{}) {
	if ok {
		fmt.Printf("ok - "+format+"\n", args...)
	} else {
		fmt.Printf("not ok - "+format+"\n", args...)
	}
}

func main() {
	var wg sync.WaitGroup
	var bad int64
	const goroutines, rounds = 64, 50

	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				b, err := os.ReadFile(tree + "/README")
				if err != nil || string(b) != "hello\n" {
					atomic.AddInt64(&bad, 1)
				}
				if _, err := os.Stat(tree + "/sub/NESTED.TXT"); err != nil {
					atomic.AddInt64(&bad, 1)
				}
			}
		}()
	}
	wg.Wait()
	check(bad == 0, "go: %d goroutines x %d reads and stats in the tree: %d failed",
		goroutines, rounds, bad)

	err := os.WriteFile(tree+"/GO.TXT", []byte("go\n"), 0644)
	check(err == nil, "go: os.WriteFile in the tree (%v)", err)
	n := 0
	err = filepath.WalkDir(tree, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n++
		return nil
	})
	check(err == nil && n >= 4, "go: filepath.WalkDir of the tree: %d entries (%v)", n, err)
}
