# man/local.mk: the man pages, installed and checked by tests/man-lint.sh.
syslet_man_pages = \
	man/sysletc.1 \
	man/syslet-run.1 \
	man/libsyslet.3 \
	man/sys_async_register.3 \
	man/sys_async_exec.3 \
	man/sys_async_wait.3 \
	man/sys_async_unregister.3 \
	man/sys_umem_add.3 \
	man/syslet_set_backend.3 \
	man/syslet_set_profile.3 \
	man/syslet_sysno.3 \
	man/syslet_syscall_name.3 \
	man/syslet_print_result.3 \
	man/syslet_read_mem.3 \
	man/syslet_ring__init.3 \
	man/syslet_set_trace.3 \
	man/syslet_set_inject.3 \
	man/syslet_get_stats.3 \
	man/syslet_step.3 \
	man/syslet_obj__open_file.3 \
	man/syslet_obj__entry_count.3 \
	man/syslet_obj__instantiate.3 \
	man/syslet_inst__bind.3 \
	man/async_head_init.3 \
	man/syslet.5 \
	man/syslet.7
dist_man_MANS += $(syslet_man_pages)
MAN_LINT += $(syslet_man_pages)

# Functions described on another function's page get a symbolic link
# rather than a .so page: mandoc -Tlint warns that .so is fragile.
# Each word is LINK:PAGE, both in section 3.
syslet_man3_links = \
	syslet_exec_batch.3:sys_async_exec.3 \
	syslet_backend_init.3:syslet_set_backend.3 \
	syslet_backend_check.3:syslet_set_backend.3 \
	syslet_backend_name.3:syslet_set_backend.3 \
	syslet_backend_error.3:syslet_set_backend.3 \
	syslet_backend_list.3:syslet_set_backend.3 \
	syslet_profile_name.3:syslet_set_profile.3 \
	syslet_ring__exit.3:syslet_ring__init.3 \
	syslet_ring__peek.3:syslet_ring__init.3 \
	syslet_ring__pop.3:syslet_ring__init.3 \
	syslet_ring__wait_pop.3:syslet_ring__init.3 \
	syslet_reset_stats.3:syslet_get_stats.3 \
	syslet_set_trace_flags.3:syslet_set_trace.3 \
	syslet_get_inject.3:syslet_set_inject.3 \
	syslet_obj__open_mem.3:syslet_obj__open_file.3 \
	syslet_obj__close.3:syslet_obj__open_file.3 \
	syslet_obj__entry_name.3:syslet_obj__entry_count.3 \
	syslet_obj__entry_params.3:syslet_obj__entry_count.3 \
	syslet_obj__entry_param.3:syslet_obj__entry_count.3 \
	syslet_obj__cell_count.3:syslet_obj__entry_count.3 \
	syslet_obj__cell_name.3:syslet_obj__entry_count.3 \
	syslet_obj__atom_count.3:syslet_obj__entry_count.3 \
	syslet_obj__atom_info.3:syslet_obj__entry_count.3 \
	syslet_syscall_count.3:syslet_syscall_name.3 \
	syslet_syscall_number.3:syslet_syscall_name.3 \
	syslet_syscall_suggest.3:syslet_syscall_name.3 \
	syslet_syscall_denied.3:syslet_syscall_name.3 \
	syslet_errno_name.3:syslet_syscall_name.3 \
	syslet_errno_number.3:syslet_syscall_name.3 \
	syslet_print_call.3:syslet_syscall_name.3 \
	syslet_obj__sym_count.3:syslet_obj__entry_count.3 \
	syslet_obj__sym_info.3:syslet_obj__entry_count.3 \
	syslet_obj__find_atom.3:syslet_obj__entry_count.3 \
	syslet_obj__list.3:syslet_obj__entry_count.3 \
	syslet_obj__profile.3:syslet_obj__entry_count.3 \
	syslet_obj__source.3:syslet_obj__entry_count.3 \
	syslet_role_name.3:syslet_obj__entry_count.3 \
	syslet_inst__free.3:syslet_obj__instantiate.3 \
	syslet_inst__obj.3:syslet_obj__instantiate.3 \
	syslet_inst__entry.3:syslet_obj__instantiate.3 \
	syslet_inst__cell.3:syslet_obj__instantiate.3 \
	syslet_inst__cell_at.3:syslet_obj__instantiate.3 \
	syslet_inst__cell_label.3:syslet_obj__instantiate.3 \
	syslet_inst__object.3:syslet_obj__instantiate.3 \
	syslet_inst__atom.3:syslet_obj__instantiate.3 \
	syslet_inst__atom_index.3:syslet_obj__instantiate.3 \
	syslet_inst__atom_info.3:syslet_obj__instantiate.3 \
	syslet_inst__result.3:syslet_obj__instantiate.3 \
	async_head_exit.3:async_head_init.3

install-data-hook: syslet-install-man-links
uninstall-hook: syslet-uninstall-man-links
syslet-install-man-links:
	@$(MKDIR_P) '$(DESTDIR)$(man3dir)'
	@for l in $(syslet_man3_links); do \
		link=$${l%%:*} page=$${l#*:}; \
		echo " LN_S $(man3dir)/$$link"; \
		(cd '$(DESTDIR)$(man3dir)' && rm -f "$$link" && \
			$(LN_S) "$$page" "$$link") || exit 1; \
	done
syslet-uninstall-man-links:
	@for l in $(syslet_man3_links); do \
		rm -f "$(DESTDIR)$(man3dir)/$${l%%:*}"; \
	done
.PHONY: syslet-install-man-links syslet-uninstall-man-links
