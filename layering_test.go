package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The layering the README promises, held by the code itself: steps/ (the engine) never imports
// Bubble Tea; ui/ (both front ends) never opens, writes or removes a file or starts a process —
// it asks steps/ for that.
func TestLayering(t *testing.T) {
	fset := token.NewFileSet()
	banned := map[string]bool{"Open": true, "OpenFile": true, "ReadFile": true, "WriteFile": true, "Create": true,
		"CreateTemp": true, "Remove": true, "RemoveAll": true, "Rename": true, "Mkdir": true, "MkdirAll": true,
		"MkdirTemp": true, "ReadDir": true, "Symlink": true, "Link": true, "Truncate": true, "StartProcess": true}
	walked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		top := strings.SplitN(filepath.ToSlash(path), "/", 2)[0]
		if top != "steps" && top != "ui" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		walked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if top == "steps" && strings.Contains(p, "bubbletea") {
				t.Errorf("%s imports %s", path, p)
			}
		}
		if top != "ui" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok {
				if (pkg.Name == "os" && banned[sel.Sel.Name]) || (pkg.Name == "exec" && strings.HasPrefix(sel.Sel.Name, "Command")) {
					t.Errorf("%s: %s.%s", fset.Position(sel.Pos()), pkg.Name, sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil || walked < 50 {
		t.Fatalf("walked %d files: %v", walked, err)
	}
}
