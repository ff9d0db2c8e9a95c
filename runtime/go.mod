module github.com/resilint/resilint/runtime

go 1.25
