/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader_x86_64: the last instructions credbox runs. loader_stub_jump(args) switches to the new
 * stack, resets the thread's FS and GS bases, robust list and clear_child_tid as execve does,
 * unmaps every range in args (all of credbox but this page, the new images, the new stack and
 * the vDSO) and jumps to the entry point with the registers the kernel's ELF_PLAT_INIT gives
 * a new program (all zero; %rdx = 0 means "no rtld_fini to register").
 *
 * It sits alone in a page-aligned, page-sized section, so that it is the only page of
 * credbox left mapped, and it touches no memory but its argument table (on the new stack,
 * wiped before the jump) and its own message: it runs while the memory around it vanishes.
 * Signals cannot run credbox code here: loader_enter reset every handler to SIG_DFL first.
 *
 *	struct loader_stub_args { u64 sp; u64 entry; void (*after)(void *); void *after_arg;
 *				  u64 nranges; struct { u64 start, len; } r[]; }
 *
 * after (the redirect runtime's, for a program mapped late: src/loader_sys.h) runs once the
 * ranges are unmapped, on the new stack below the table; it returns, or ends the process.
 */
#define NR_write		1
#define NR_munmap		11
#define NR_arch_prctl		158
#define NR_set_tid_address	218
#define NR_exit_group		231
#define NR_set_robust_list	273
#define ARCH_SET_GS		0x1001
#define ARCH_SET_FS		0x1002
#define ROBUST_LIST_HEAD_SIZE	24

	.section .text.credbox_loader_stub, "ax", @progbits
	.balign 4096
	.globl loader_stub_start, loader_stub_end, loader_stub_jump
	.hidden loader_stub_start, loader_stub_end, loader_stub_jump
loader_stub_start:
	.type loader_stub_jump, @function
loader_stub_jump:
	mov	%rdi, %rbx		/* args */
	mov	0(%rbx), %rsp		/* the new stack: credbox's own is about to go */
	/*
	 * The thread state execve resets and credbox's libc set: the FS base (credbox's thread
	 * block, which goes now: nothing here reads %fs), the GS base, the robust futex list
	 * the kernel would walk at exit, and the clear_child_tid address it would write at
	 * exit. A new program finds them all 0. Failures (a filter denying one) are ignored:
	 * the program's libc sets all four itself.
	 */
	mov	$NR_arch_prctl, %eax
	mov	$ARCH_SET_FS, %edi
	xor	%esi, %esi
	syscall
	mov	$NR_arch_prctl, %eax
	mov	$ARCH_SET_GS, %edi
	xor	%esi, %esi
	syscall
	mov	$NR_set_robust_list, %eax
	xor	%edi, %edi
	mov	$ROBUST_LIST_HEAD_SIZE, %esi
	syscall
	mov	$NR_set_tid_address, %eax
	xor	%edi, %edi
	syscall
	mov	32(%rbx), %r12		/* nranges */
	lea	40(%rbx), %r13		/* ranges */
1:	test	%r12, %r12
	jz	2f
	mov	$NR_munmap, %eax
	mov	0(%r13), %rdi
	mov	8(%r13), %rsi
	syscall
	test	%rax, %rax
	jnz	9f
	add	$16, %r13
	dec	%r12
	jmp	1b

2:	mov	16(%rbx), %rax		/* after(after_arg), below the table */
	test	%rax, %rax
	jz	3f
	mov	%rbx, %rsp
	and	$-16, %rsp
	mov	24(%rbx), %rdi
	call	*%rax
	mov	0(%rbx), %rsp
3:	mov	8(%rbx), %r11		/* entry */
	mov	%rbx, %rdi		/* wipe the table: it describes credbox's old layout */
	mov	%r13, %rcx
	sub	%rbx, %rcx
	xor	%eax, %eax
	cld
	rep stosb
	/* A clean FPU and SSE state, as a new process gets. */
	fninit
	movl	$0x1f80, -8(%rsp)
	ldmxcsr	-8(%rsp)
	movq	$0, -8(%rsp)
	xor	%eax, %eax
	xor	%ebx, %ebx
	xor	%ecx, %ecx
	xor	%edx, %edx
	xor	%esi, %esi
	xor	%edi, %edi
	xor	%ebp, %ebp
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	xor	%r12d, %r12d
	xor	%r13d, %r13d
	xor	%r14d, %r14d
	xor	%r15d, %r15d
	jmp	*%r11

	/*
	 * An munmap failed after the point of no return (only ENOMEM is possible, when splitting
	 * a mapping exceeds vm.max_map_count): part of credbox may remain, so do not run the
	 * program. Say so and exit 126.
	 */
9:	mov	$NR_write, %eax
	mov	$2, %edi
	lea	msg(%rip), %rsi
	mov	$msg_len, %edx
	syscall
	mov	$NR_exit_group, %eax
	mov	$126, %edi
	syscall
	hlt
	.size loader_stub_jump, . - loader_stub_jump

msg:	.ascii	"credbox: loader: munmap failed after the point of no return\n"
	msg_len = . - msg

	.balign 4096
loader_stub_end:

	.section .note.GNU-stack, "", @progbits
