module github.com/vitalis-health/vitalis/libs/client-go

go 1.22

require github.com/coder/websocket v1.8.13
