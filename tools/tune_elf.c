/* Reading one named section out of an ELF64 file, for flat-tune, which
   finds a program's nest packages in its ".flat_packages" section without
   running it.  Only the ELF header, the section header table, the section
   name table and the wanted section are read; every offset and size is
   checked against the file's size first, so a truncated or corrupt file
   gives a message, never a wild read.  libelf would do the same at the
   price of a dependency.

   Extended numbering is honoured: with 0xff00 sections or more, e_shnum
   is 0 and the count is in section 0's sh_size; e_shstrndx is SHN_XINDEX
   and the index is in section 0's sh_link.  */

#include "tune.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Read N bytes at OFFSET of F into BUF.  */
static int
read_at (FILE *f, uint64_t offset, void *buf, size_t n)
{
  if (offset > (uint64_t) INT64_MAX
      || fseeko (f, (off_t) offset, SEEK_SET) != 0)
    return -1;
  return fread (buf, 1, n, f) == n ? 0 : -1;
}

/* Is [OFFSET, OFFSET + SIZE) inside a file of FILE_SIZE bytes?  */
static int
in_file (uint64_t offset, uint64_t size, uint64_t file_size)
{
  return offset <= file_size && size <= file_size - offset;
}

/* Section header INDEX of EH's section header table.  */
static int
read_shdr (FILE *f, const Elf64_Ehdr *eh, uint64_t index, Elf64_Shdr *sh)
{
  return read_at (f, eh->e_shoff + index * eh->e_shentsize, sh, sizeof *sh);
}

/* The whole of section SH, malloc'ed in *DATA.  */
static int
read_section (FILE *f, const Elf64_Shdr *sh, unsigned char **data)
{
  *data = malloc (sh->sh_size > 0 ? sh->sh_size : 1);
  if (!*data)
    return -1;
  if (read_at (f, sh->sh_offset, *data, sh->sh_size) != 0)
    {
      free (*data);
      *data = NULL;
      return -1;
    }
  return 0;
}

/* The checks of the ELF header of F (FILE_SIZE bytes) that make it an
   ELF64 file of ours with a readable section header table; *SHNUM and
   *SHSTRNDX get the real section count and name table index.  Returns
   NULL or what is wrong.  */
static const char *
check_header (FILE *f, uint64_t file_size, Elf64_Ehdr *eh, uint64_t *shnum,
	      uint64_t *shstrndx)
{
  static const unsigned char our_data
    = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
  Elf64_Shdr sh0;

  if (read_at (f, 0, eh->e_ident, EI_NIDENT) != 0
      || memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0)
    return "not an ELF file";
  if (eh->e_ident[EI_CLASS] != ELFCLASS64)
    return "not a 64-bit ELF file";
  if (eh->e_ident[EI_DATA] != our_data)
    return "an ELF file of the other byte order";
  if (read_at (f, 0, eh, sizeof *eh) != 0)
    return "truncated ELF header";
  if (eh->e_shoff == 0)
    return "no section header table";
  if (eh->e_shentsize < sizeof (Elf64_Shdr)
      || !in_file (eh->e_shoff, sizeof (Elf64_Shdr), file_size))
    return "malformed section header table";
  if (read_shdr (f, eh, 0, &sh0) != 0)
    return "truncated section header table";
  *shnum = eh->e_shnum != 0 ? eh->e_shnum : sh0.sh_size;
  *shstrndx = eh->e_shstrndx != SHN_XINDEX ? eh->e_shstrndx : sh0.sh_link;
  if (*shnum > (file_size - eh->e_shoff) / eh->e_shentsize
      || *shstrndx == SHN_UNDEF || *shstrndx >= *shnum)
    return "malformed section header table";
  return NULL;
}

/* Index of the section named NAME in F, 0 if none, -1 with *WHY if the
   table cannot be read.  */
static int64_t
section_index (FILE *f, const Elf64_Ehdr *eh, uint64_t shnum,
	       const unsigned char *names, uint64_t names_size,
	       const char *name, const char **why)
{
  size_t name_len = strlen (name);
  Elf64_Shdr sh;
  uint64_t i;

  for (i = 1; i < shnum; i++)
    {
      if (read_shdr (f, eh, i, &sh) != 0)
	{
	  *why = "truncated section header table";
	  return -1;
	}
      if (sh.sh_name < names_size && names_size - sh.sh_name > name_len
	  && memcmp (names + sh.sh_name, name, name_len + 1) == 0)
	return (int64_t) i;
    }
  return 0;
}

/* Find NAME in F (FILE_SIZE bytes); see tune_read_elf_section.  */
static int
find_section (FILE *f, uint64_t file_size, const char *name,
	      unsigned char **data, size_t *size, const char **why)
{
  Elf64_Ehdr eh;
  Elf64_Shdr sh;
  uint64_t shnum, shstrndx;
  unsigned char *names;
  int64_t index;

  *why = check_header (f, file_size, &eh, &shnum, &shstrndx);
  if (*why)
    return -1;
  if (read_shdr (f, &eh, shstrndx, &sh) != 0
      || sh.sh_type == SHT_NOBITS
      || !in_file (sh.sh_offset, sh.sh_size, file_size)
      || read_section (f, &sh, &names) != 0)
    {
      *why = "unreadable section name table";
      return -1;
    }
  index = section_index (f, &eh, shnum, names, sh.sh_size, name, why);
  free (names);
  if (index <= 0)
    return index < 0 ? -1 : 1;
  if (read_shdr (f, &eh, (uint64_t) index, &sh) != 0)
    {
      *why = "truncated section header table";
      return -1;
    }
  if (sh.sh_type == SHT_NOBITS || sh.sh_size == 0)
    return 1;
  if (!in_file (sh.sh_offset, sh.sh_size, file_size) || sh.sh_size > SIZE_MAX)
    {
      *why = "a section lies outside the file";
      return -1;
    }
  if (read_section (f, &sh, data) != 0)
    {
      *why = "cannot read the section";
      return -1;
    }
  *size = (size_t) sh.sh_size;
  return 0;
}

int
tune_read_elf_section (const char *path, const char *name,
		       unsigned char **data, size_t *size, char *err,
		       size_t err_size)
{
  struct stat st;
  const char *why = NULL;
  FILE *f = fopen (path, "rb");
  int rc;

  *data = NULL;
  *size = 0;
  if (!f)
    {
      snprintf (err, err_size, "%s: %s", path, strerror (errno));
      return -1;
    }
  if (fstat (fileno (f), &st) != 0)
    why = strerror (errno);
  else if (!S_ISREG (st.st_mode))
    why = "not a regular file";
  rc = why ? -1 : find_section (f, (uint64_t) st.st_size, name, data, size,
				&why);
  /* Only read from: closing cannot lose anything.  */
  (void) fclose (f);
  if (rc < 0)
    snprintf (err, err_size, "%s: %s", path, why);
  return rc;
}
