/**
 * Whether this server may still act for its running turns (docs/spec/postgres.md §2 instance loss). Where
 * several instances share a store, one that went silent (paused, cut off from the database) may
 * have been declared lost, and its turns ended by another. Until it knows, its turns' item writes
 * and notifications wait, so a turn that another instance already ended gets none from it — not
 * even what its model sent while it was paused, processed at once when it resumes.
 */
export interface InstanceLease {
  /**
   * null while this instance knows it is alive (the common case, so the caller need not await);
   * otherwise settles once it has checked, after stopping the turns it turned out to have lost.
   */
  check(): Promise<void> | null;
}

export const INSTANCE_LEASE = Symbol('INSTANCE_LEASE');

/** One process on its own store: nobody else can declare it lost. */
export const UNSHARED_INSTANCE_LEASE: InstanceLease = { check: () => null };
