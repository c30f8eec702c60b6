import * as assert from 'node:assert/strict';
import { ConfirmationLedger } from '../../../../src/core/chain/confirmations';

describe('confirmations: each shown confirmation is consumed by exactly one invocation', () => {
  it('a call is confirmed only when a confirmation was shown for that tool and input', () => {
    const ledger = new ConfirmationLedger(1000, () => 0);
    ledger.shownFor('transaction-commit', { workspace: 'a' });
    assert.equal(ledger.consume('transaction-commit', { workspace: 'b' }), false, 'another input');
    assert.equal(ledger.consume('transaction-rollback', { workspace: 'a' }), false, 'another tool');
    assert.equal(ledger.consume('transaction-commit', { workspace: 'a' }), true);
  });

  it('one confirmation confirms one invocation, two identical confirmations two', () => {
    const ledger = new ConfirmationLedger(1000, () => 0);
    ledger.shownFor('transaction-commit', {});
    assert.equal(ledger.consume('transaction-commit', {}), true);
    assert.equal(ledger.consume('transaction-commit', {}), false, 'a second commit with the same input is not confirmed by the first one');
    ledger.shownFor('transaction-commit', {});
    ledger.shownFor('transaction-commit', {});
    assert.equal(ledger.pending(), 2);
    assert.equal(ledger.consume('transaction-commit', {}), true);
    assert.equal(ledger.consume('transaction-commit', {}), true);
    assert.equal(ledger.consume('transaction-commit', {}), false);
    assert.equal(ledger.pending(), 0);
  });

  it('a confirmation never consumed (the person cancelled it) expires', () => {
    let now = 0;
    const ledger = new ConfirmationLedger(1000, () => now);
    ledger.shownFor('transaction-commit', {});
    now = 1001;
    assert.equal(ledger.consume('transaction-commit', {}), false);
    assert.equal(ledger.pending(), 0);
  });
});
