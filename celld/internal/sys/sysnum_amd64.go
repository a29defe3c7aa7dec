package sys

// Syscall numbers the Go 1.19 syscall package does not export for this architecture.
const (
	sysOpenat2    = 437
	sysRenameat2  = 316
	sysFstatat    = 262 // newfstatat
	sysUnlinkat   = 263
	sysReadlinkat = 267
	sysGetrandom  = 318
	sysFaccessat2 = 439
	// pidfd_open and pidfd_send_signal share one number on every architecture.
	sysPidfdOpen       = 434
	sysPidfdSendSignal = 424
)
