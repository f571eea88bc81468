package outdir

// sysRenameat2 is renameat2's number on amd64, which the syscall package
// predates.
const sysRenameat2 = 316
