// The fields beside the status: disposable domain, role account, free mail, and the likely typo.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addressExtensions, didYouMean, isDisposableDomain, isRoleAccount } from '../../src/email/extensions.ts';

describe('address extensions', () => {
  it('disposable domains come from the maintained list, subdomains of wildcard entries included', () => {
    assert.equal(isDisposableDomain('mailinator.com'), true);
    assert.equal(isDisposableDomain('10minutemail.com'), true);
    assert.equal(isDisposableDomain('anything.33mail.com'), true);
    assert.equal(isDisposableDomain('initech.com'), false);
    assert.equal(isDisposableDomain('gmail.com'), false);
  });

  it('role accounts, with tags and separators', () => {
    for (const local of ['info', 'Sales', 'support+eu', 'no-reply', 'noreply', 'customer.service', 'hr'])
      assert.equal(isRoleAccount(local), true, local);
    for (const local of ['peter.gibbons', 'jsmith', 'infoman', 'salesforce.admin.x']) assert.equal(isRoleAccount(local), false, local);
  });

  it('did you mean: typos of common providers, never a real domain', () => {
    assert.equal(didYouMean('jane', 'gmial.com'), 'jane@gmail.com');
    assert.equal(didYouMean('jane', 'gmail.con'), 'jane@gmail.com');
    assert.equal(didYouMean('jane', 'hotmial.com'), 'jane@hotmail.com');
    assert.equal(didYouMean('jane', 'yaho.com'), 'jane@yahoo.com');
    assert.equal(didYouMean('jane', 'outlok.com'), 'jane@outlook.com');
    assert.equal(didYouMean('jane', 'gmail.com'), null);
    assert.equal(didYouMean('jane', 'gmx.net'), null, 'another provider, not a typo');
    assert.equal(didYouMean('jane', 'initech.com'), null);
    assert.equal(didYouMean('jane', 'hotmail.fr'), null, 'a provider of its own');
    assert.equal(didYouMean('jane', 'gamil.co'), 'jane@gmail.com', 'two edits from a longer name');
    assert.equal(didYouMean('jane', 'aim.co'), null, 'two edits from a short name are too many');
  });

  it('all four together', () => {
    assert.deepEqual(addressExtensions('info', 'gmail.com'), {
      is_disposable: false,
      is_role_account: true,
      is_free_email: true,
      did_you_mean: null,
    });
  });
});
