// SPDX-License-Identifier: GPL-2.0
/* syslet_kunit.c: KUnit test of the i386 syslet_copy_uatom/syslet_umem_add on real user memory, faults included. */
/*
 * Goes to arch/x86/lib/syslet_kunit.c; built when CONFIG_KUNIT and
 * CONFIG_SYSLET are both y (asm-i386/install-kernel.sh adds the lines),
 * runs at boot with the other built-in suites.  The user pages come from
 * kunit_vm_mmap(), laid out as
 *
 *	base + 0     read-only (zero page)
 *	base + 1P    read-write
 *	base + 2P    read-write
 *	base + 3P    PROT_NONE
 *
 * so atoms and cells can straddle into a page that faults.  What only
 * the kernel can check: a kernel address as atom, arg_ptr or umem_add
 * pointer is refused (its contents never reach args[], it is never
 * written), and every fault comes back as -EFAULT through the exception
 * table with SMAP on.
 */
#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/uaccess.h>
#include <linux/syslet.h>
#include <asm/syslet-asm.h>

struct syslet_kunit {
	unsigned long ro, rw, none;
};

static int syslet_kunit_init(struct kunit *test)
{
	struct syslet_kunit *k;
	unsigned long base;

	k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k);
	base = kunit_vm_mmap(test, NULL, 0, 4 * PAGE_SIZE,
			     PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, base, 0, "no user mm");
	KUNIT_ASSERT_LT(test, base, (unsigned long)TASK_SIZE);
	KUNIT_ASSERT_EQ(test, kunit_vm_mmap(test, NULL, base, PAGE_SIZE,
					    PROT_READ,
					    MAP_ANONYMOUS | MAP_PRIVATE |
						    MAP_FIXED, 0), base);
	KUNIT_ASSERT_EQ(test, kunit_vm_mmap(test, NULL, base + 3 * PAGE_SIZE,
					    PAGE_SIZE, PROT_NONE,
					    MAP_ANONYMOUS | MAP_PRIVATE |
						    MAP_FIXED, 0),
			base + 3 * PAGE_SIZE);
	k->ro = base;
	k->rw = base + PAGE_SIZE;
	k->none = base + 3 * PAGE_SIZE;
	test->priv = k;
	return 0;
}

/* A user atom image: head words, then the arg_ptr[] values. */
static void put_atom(struct kunit *test, unsigned long at,
		     const unsigned long head[4], const unsigned long ptr[6],
		     size_t bytes)
{
	unsigned long img[11];

	memcpy(img, head, 4 * sizeof(long));
	memcpy(img + 4, ptr, 6 * sizeof(long));
	img[10] = 0x5ca1ab1e;
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)at, img, bytes), 0);
}

static void put_word(struct kunit *test, unsigned long at, unsigned long v)
{
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)at, &v, sizeof(v)),
			0);
}

static unsigned long get_word(struct kunit *test, unsigned long at)
{
	unsigned long v = 0;

	KUNIT_EXPECT_EQ(test, copy_from_user(&v, (void __user *)at, sizeof(v)),
			0);
	return v;
}

static const unsigned long sk_head[4] = { 0x88, 39, 0xdead0000, 0xbeef0000 };

/* nargs good cells, a NULL, then pointers that must never be followed. */
static void copy_nargs(struct kunit *test, int nargs)
{
	struct syslet_kunit *k = test->priv;
	unsigned long ptr[6], at = k->rw + 64, secret = 0x600d;
	struct syslet_atom atom;
	int i;

	for (i = 0; i < 6; i++) {
		unsigned long cell = k->rw + 1024 + 4 * i;

		put_word(test, cell, 1000 + i);
		if (i < nargs)
			ptr[i] = cell;
		else if (i == nargs)
			ptr[i] = 0;
		else
			ptr[i] = (unsigned long)&secret;
	}
	put_atom(test, at, sk_head, ptr, 11 * sizeof(long));
	memset(&atom, 0xa5, sizeof(atom));
	KUNIT_ASSERT_EQ(test, syslet_copy_uatom(&atom, at), 0);
	KUNIT_EXPECT_EQ(test, atom.flags, sk_head[0]);
	KUNIT_EXPECT_EQ(test, atom.nr, sk_head[1]);
	KUNIT_EXPECT_EQ(test, (unsigned long)atom.ret_ptr, sk_head[2]);
	KUNIT_EXPECT_EQ(test, (unsigned long)atom.next, sk_head[3]);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, atom.args[i],
				i < nargs ? 1000ul + i : 0ul);
}

static void syslet_kunit_copy(struct kunit *test)
{
	int n;

	for (n = 0; n <= 6; n++)
		copy_nargs(test, n);
}

static void syslet_kunit_copy_faults(struct kunit *test)
{
	struct syslet_kunit *k = test->priv;
	unsigned long ptr[6] = { 0 }, at = k->rw + 512;
	unsigned long secret = 0x5ec7e7;
	struct syslet_atom atom;

	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, k->none), -EFAULT);
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom,
						TASK_SIZE_MAX - 44 + 1),
			-EFAULT);
	/* a kernel atom is refused, not read */
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, (unsigned long)k),
			-EFAULT);

	/* a kernel address as arg_ptr: refused, the secret stays */
	ptr[0] = (unsigned long)&secret;
	put_atom(test, at, sk_head, ptr, 11 * sizeof(long));
	memset(&atom, 0, sizeof(atom));
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, at), -EFAULT);
	KUNIT_EXPECT_NE(test, atom.args[0], secret);

	ptr[0] = TASK_SIZE_MAX - 3;
	put_atom(test, at, sk_head, ptr, 11 * sizeof(long));
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, at), -EFAULT);
	ptr[0] = k->none + 8;
	put_atom(test, at, sk_head, ptr, 11 * sizeof(long));
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, at), -EFAULT);
	ptr[0] = k->none - 2;		/* a cell straddling into PROT_NONE */
	put_atom(test, at, sk_head, ptr, 11 * sizeof(long));
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, at), -EFAULT);
	ptr[0] = k->rw - 2;		/* read-only into read-write: fine */
	put_atom(test, at, sk_head, ptr, 11 * sizeof(long));
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, at), 0);
}

static void syslet_kunit_copy_straddle(struct kunit *test)
{
	struct syslet_kunit *k = test->priv;
	unsigned long ptr[6], cell = k->rw + 2048;
	struct syslet_atom atom;
	int i;

	put_word(test, cell, 77);
	for (i = 0; i < 6; i++)
		ptr[i] = cell;
	/* six args need 40 bytes; private, in PROT_NONE, is not read */
	put_atom(test, k->none - 40, sk_head, ptr, 40);
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, k->none - 40), 0);
	KUNIT_EXPECT_EQ(test, atom.args[5], 77ul);
	put_atom(test, k->none - 36, sk_head, ptr, 36);
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, k->none - 36), -EFAULT);
	/* no args: 20 bytes */
	ptr[0] = 0;
	put_atom(test, k->none - 20, sk_head, ptr, 20);
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, k->none - 20), 0);
	/* an all-zero atom in the read-only page */
	memset(&atom, 0xa5, sizeof(atom));
	KUNIT_EXPECT_EQ(test, syslet_copy_uatom(&atom, k->ro + 128), 0);
	KUNIT_EXPECT_EQ(test, atom.nr, 0ul);
	KUNIT_EXPECT_EQ(test, atom.args[0], 0ul);
	KUNIT_EXPECT_EQ(test, atom.args[5], 0ul);
}

static void syslet_kunit_umem_add(struct kunit *test)
{
	struct syslet_kunit *k = test->priv;
	unsigned long __user *p = (unsigned long __user *)(k->rw + 256);
	unsigned long edge = k->rw + PAGE_SIZE - 2;
	unsigned long kvar = 1234;

	put_word(test, (unsigned long)p, 40);
	KUNIT_EXPECT_EQ(test, syslet_umem_add(p, 0), 40L);
	KUNIT_EXPECT_EQ(test, syslet_umem_add(p, 2), 42L);
	KUNIT_EXPECT_EQ(test, syslet_umem_add(p, -42UL), 0L);
	put_word(test, (unsigned long)p, ~0UL);
	KUNIT_EXPECT_EQ(test, syslet_umem_add(p, 1), 0L);
	KUNIT_EXPECT_EQ(test, get_word(test, (unsigned long)p), 0ul);

	/* read-only: inc 0 reads, anything else faults */
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)k->ro, 0), 0L);
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)k->ro, 1),
			(long)-EFAULT);
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)k->none, 0),
			(long)-EFAULT);
	KUNIT_EXPECT_EQ(test, syslet_umem_add(NULL, 1), (long)-EFAULT);
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)(TASK_SIZE_MAX -
							      3), 1),
			(long)-EFAULT);

	/* a kernel address is refused and left alone */
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)&kvar, 1),
			(long)-EFAULT);
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)&kvar, 0),
			(long)-EFAULT);
	KUNIT_EXPECT_EQ(test, kvar, 1234ul);

	/* unaligned across two read-write pages, and into PROT_NONE */
	put_word(test, edge, 0x01020304);
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)edge, 0x10),
			0x01020314L);
	edge = k->none - 2;
	put_word(test, edge - 2, 0xaabbccdd);
	KUNIT_EXPECT_EQ(test, syslet_umem_add((void __user *)edge, 1),
			(long)-EFAULT);
	KUNIT_EXPECT_EQ(test, get_word(test, edge - 2), 0xaabbccddul);
}

static struct kunit_case syslet_kunit_cases[] = {
	KUNIT_CASE(syslet_kunit_copy),
	KUNIT_CASE(syslet_kunit_copy_faults),
	KUNIT_CASE(syslet_kunit_copy_straddle),
	KUNIT_CASE(syslet_kunit_umem_add),
	{}
};

static struct kunit_suite syslet_kunit_suite = {
	.name = "syslet_i386_asm",
	.init = syslet_kunit_init,
	.test_cases = syslet_kunit_cases,
};
kunit_test_suite(syslet_kunit_suite);

MODULE_DESCRIPTION("KUnit test of the i386 syslet assembly");
MODULE_LICENSE("GPL");
