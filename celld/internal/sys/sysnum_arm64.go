package sys

// Syscall numbers the Go 1.19 syscall package does not export for this architecture.
const (
	sysOpenat2    = 437
	sysRenameat2  = 276
	sysFstatat    = 79
	sysUnlinkat   = 35
	sysReadlinkat = 78
	sysGetrandom  = 278
	sysFaccessat2 = 439
	// pidfd_open and pidfd_send_signal share one number on every architecture.
	sysPidfdOpen       = 434
	sysPidfdSendSignal = 424
)
