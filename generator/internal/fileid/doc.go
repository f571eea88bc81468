// Package fileid tells whether a file is still the one seen before without
// reading it: its identity is what the kernel keeps besides the size, mode
// and modification time (which rsync -a, cp -p, tar or touch -r restore) —
// the inode, the device and the status-change time, which no tool can set.
// The fingerprint of a build's inputs and the manifest of the site it wrote
// both rest on it; where a system has no status-change time, Identity says
// so and the callers read the file.
package fileid
