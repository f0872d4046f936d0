/// What the engine asks before it allocates memory on a caller's behalf
/// (collections an update makes, a parsed JSON document), so that a host
/// capping a script's memory can refuse the work before it is done.
///
/// The engine calls ``charge(_:)`` with an estimate of the bytes it is about
/// to allocate; a budget that throws refuses them, and the engine gives up
/// the work with that error. Small allocations are asked for ahead, ``step``
/// bytes at a time (``BudgetMeter``), so asking costs little.
///
/// ```swift
/// world.memoryBudget = MemoryBudget { bytes in
///     used += bytes
///     if used > cap { throw TraitError("not enough memory") }
/// }
/// ```
public struct MemoryBudget {
    /// How much a ``BudgetMeter`` asks for at a time: what may be allocated
    /// on one ask (a small part of a cap).
    public let step: Int
    private let ask: (Int) throws -> Void

    /// A budget that `charge` keeps.
    /// - Parameters:
    ///   - step: How many bytes a ``BudgetMeter`` asks for at a time (64 KiB by
    ///     default; at least 1).
    ///   - charge: Called with a number of bytes about to be allocated; throws to
    ///     refuse them.
    public init(step: Int = 64 << 10, _ charge: @escaping (Int) throws -> Void) {
        self.step = max(1, step)
        ask = charge
    }

    /// Asks for `bytes` more; throws when the budget refuses them.
    public func charge(_ bytes: Int) throws { try ask(bytes) }
}

/// Asks a ``MemoryBudget`` ahead for many small allocations: its step at a
/// time (or what one estimate needs, when more), before any of them is
/// made, so that asking costs a call per step rather than per allocation.
/// What was asked for and not used yet (less than a step) stays asked for.
public struct BudgetMeter {
    /// The budget asked, or nil: nothing is asked and every charge succeeds.
    public let budget: MemoryBudget?
    private var prepaid = 0

    /// A meter that has asked `budget` for nothing yet.
    public init(_ budget: MemoryBudget?) { self.budget = budget }

    /// Notes that about `bytes` are about to be allocated; throws, before
    /// they are, when the budget refuses them.
    @inline(__always)
    public mutating func charge(_ bytes: Int) throws {
        guard let budget else { return }
        if bytes > prepaid {
            let n = max(budget.step, bytes - prepaid)
            try budget.charge(n)
            prepaid += n
        }
        prepaid -= bytes
    }
}
