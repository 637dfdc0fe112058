/*
 * A stand-in of Stripe.js for the browser tests (served by test/helpers/stripe-standin.ts at /v3/stripe.js,
 * never in production). It defines `window.Stripe` with the parts of Stripe.js's interface Tessera uses, and
 * talks to the same stand-in server's API as Stripe.js talks to api.stripe.com: with the publishable key as the
 * `key` parameter, form-encoded bodies with bracketed keys.
 *
 *   Stripe(pk).elements({ mode, amount, currency, allowedPaymentMethodTypes, paymentMethodCreation })
 *   elements.create('payment')  -> mount(node), on/off('ready' | 'change'), update, destroy, unmount, focus
 *   elements.submit()           -> { error } while a field is incomplete (shown on the field, as Stripe does)
 *   stripe.createPaymentMethod({ elements, params })  -> POST /v1/payment_methods
 *   stripe.handleNextAction({ clientSecret })         -> 3-D Secure in a dialog (Stripe's test page: Complete or
 *                                                        Fail authentication), or a redirect (Afterpay)
 *
 * The card fields are plain inputs in the mount node (the real Payment Element is an iframe of js.stripe.com).
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var API = script && script.src ? new URL(script.src).origin : '';
  var uid = 0;

  function form(obj, prefix, out) {
    out = out || [];
    Object.keys(obj).forEach(function (k) {
      var v = obj[k];
      var name = prefix ? prefix + '[' + k + ']' : k;
      if (v === undefined || v === null) return;
      if (typeof v === 'object') form(v, name, out);
      else out.push(encodeURIComponent(name) + '=' + encodeURIComponent(String(v)));
    });
    return out.join('&');
  }

  function call(method, path, pk, params) {
    var body = form(Object.assign({ key: pk }, params || {}));
    var url = API + path + (method === 'GET' ? '?' + body : '');
    return fetch(url, {
      method: method,
      headers: method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
      body: method === 'GET' ? undefined : body,
    }).then(function (r) {
      return r.json().then(function (j) {
        return r.ok ? { ok: j } : { error: j.error || { type: 'api_error', message: 'Something went wrong.' } };
      });
    });
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      e.setAttribute(k, attrs[k]);
    });
    if (text) e.textContent = text;
    return e;
  }

  var MESSAGES = {
    number: 'Your card number is incomplete.',
    expiry: 'Your card’s expiration date is incomplete.',
    cvc: 'Your card’s security code is incomplete.',
  };

  function PaymentElement(elements, options) {
    this.elements = elements;
    this.options = options || {};
    this.handlers = {};
    this.node = null;
    this.fields = {};
    this.type = 'card';
    this.id = 'stripe-standin-' + ++uid;
  }
  PaymentElement.prototype.on = function (event, cb) {
    (this.handlers[event] = this.handlers[event] || []).push(cb);
    return this;
  };
  PaymentElement.prototype.once = PaymentElement.prototype.on;
  PaymentElement.prototype.off = function (event, cb) {
    this.handlers[event] = (this.handlers[event] || []).filter(function (h) {
      return h !== cb;
    });
    return this;
  };
  PaymentElement.prototype.emit = function (event, payload) {
    (this.handlers[event] || []).slice().forEach(function (h) {
      h(payload);
    });
  };
  PaymentElement.prototype.types = function () {
    var t = this.elements.options.allowedPaymentMethodTypes || this.elements.options.paymentMethodTypes;
    return Array.isArray(t) && t.length ? t : ['card'];
  };
  PaymentElement.prototype.mount = function (target) {
    var node = typeof target === 'string' ? document.querySelector(target) : target;
    this.node = node;
    this.render();
    setTimeout(() => this.emit('ready', { elementType: 'payment' }), 0);
  };
  PaymentElement.prototype.render = function () {
    var node = this.node;
    if (!node) return;
    node.textContent = '';
    var root = el('div', { class: 'stripe-standin', 'data-stripe-standin': 'payment' });
    var types = this.types();
    if (types.indexOf(this.type) < 0) this.type = types[0];
    if (types.length > 1) {
      var fs = el('fieldset', {});
      fs.appendChild(el('legend', {}, 'Payment method'));
      types.forEach((t) => {
        var id = this.id + '-type-' + t;
        var input = el('input', { type: 'radio', name: this.id + '-type', id: id, value: t });
        input.checked = t === this.type;
        input.addEventListener('change', () => {
          this.type = t;
          this.render();
          this.changed();
        });
        var label = el('label', { for: id });
        label.appendChild(input);
        label.appendChild(document.createTextNode(' ' + (t === 'card' ? 'Card' : t === 'afterpay_clearpay' ? 'Afterpay' : t)));
        fs.appendChild(label);
      });
      root.appendChild(fs);
    }
    this.fields = {};
    if (this.type === 'card') {
      [
        ['number', 'Card number', 'cc-number', '1234 1234 1234 1234'],
        ['expiry', 'Expiration date (MM / YY)', 'cc-exp', 'MM / YY'],
        ['cvc', 'Security code', 'cc-csc', 'CVC'],
      ].forEach((f) => {
        var id = this.id + '-' + f[0];
        var wrap = el('div', { class: 'stripe-standin__field' });
        wrap.appendChild(el('label', { for: id }, f[1]));
        var input = el('input', { id: id, type: 'text', inputmode: 'numeric', autocomplete: f[2], placeholder: f[3] });
        var err = el('p', { id: id + '-error', class: 'stripe-standin__error', role: 'alert' });
        input.addEventListener('input', () => {
          err.textContent = '';
          input.removeAttribute('aria-invalid');
          input.removeAttribute('aria-describedby');
          this.changed();
        });
        wrap.appendChild(input);
        wrap.appendChild(err);
        root.appendChild(wrap);
        this.fields[f[0]] = { input: input, error: err };
      });
    } else {
      root.appendChild(el('p', {}, 'After you place your order you will be taken to Afterpay to complete your purchase securely.'));
    }
    node.appendChild(root);
  };
  PaymentElement.prototype.changed = function () {
    var complete =
      this.type !== 'card' ||
      ['number', 'expiry', 'cvc'].every(function (k) {
        return this.fields[k] && this.fields[k].input.value.trim() !== '';
      }, this);
    this.emit('change', { elementType: 'payment', complete: complete, empty: false, collapsed: false, value: { type: this.type } });
  };
  PaymentElement.prototype.validate = function () {
    if (this.type !== 'card') return null;
    var first = null;
    ['number', 'expiry', 'cvc'].forEach((k) => {
      var f = this.fields[k];
      var v = f.input.value.replace(/\s/g, '');
      var bad = k === 'number' ? !/^\d{12,19}$/.test(v) : k === 'expiry' ? !/^\d{2}\/?\d{2}$/.test(v) : !/^\d{3,4}$/.test(v);
      if (bad) {
        this.showError(k, MESSAGES[k]);
        if (!first) first = { type: 'validation_error', code: 'incomplete_' + k, message: MESSAGES[k] };
      }
    });
    return first;
  };
  PaymentElement.prototype.showError = function (k, message) {
    var f = this.fields[k] || this.fields.number;
    if (!f) return;
    f.error.textContent = message;
    f.input.setAttribute('aria-invalid', 'true');
    f.input.setAttribute('aria-describedby', f.error.id);
  };
  PaymentElement.prototype.card = function () {
    var exp = this.fields.expiry.input.value.replace(/\s/g, '').replace('/', '');
    return {
      number: this.fields.number.input.value.replace(/\s/g, ''),
      exp_month: exp.slice(0, 2),
      exp_year: '20' + exp.slice(2, 4),
      cvc: this.fields.cvc.input.value.trim(),
    };
  };
  PaymentElement.prototype.update = function (opts) {
    Object.assign(this.options, opts || {});
  };
  PaymentElement.prototype.focus = function () {
    if (this.fields.number) this.fields.number.input.focus();
  };
  PaymentElement.prototype.blur = function () {};
  PaymentElement.prototype.clear = function () {
    this.render();
  };
  PaymentElement.prototype.collapse = function () {};
  PaymentElement.prototype.unmount = function () {
    if (this.node) this.node.textContent = '';
    this.node = null;
  };
  PaymentElement.prototype.destroy = function () {
    this.unmount();
    this.elements.element = null;
  };

  function Elements(stripe, options) {
    this.stripe = stripe;
    this.options = Object.assign({}, options || {});
    this.element = null;
  }
  Elements.prototype.create = function (type, options) {
    if (type !== 'payment') throw new Error('The Stripe.js stand-in makes only the Payment Element.');
    this.element = new PaymentElement(this, options);
    return this.element;
  };
  Elements.prototype.getElement = function (type) {
    return type === 'payment' ? this.element : null;
  };
  Elements.prototype.update = function (options) {
    var before = JSON.stringify(this.options.allowedPaymentMethodTypes || null);
    Object.assign(this.options, options || {});
    if (this.element && JSON.stringify(this.options.allowedPaymentMethodTypes || null) !== before) this.element.render();
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype.submit = function () {
    var e = this.element;
    if (!e || !e.node) return Promise.resolve({ error: { type: 'validation_error', message: 'The Payment Element is not mounted.' } });
    var error = e.validate();
    return Promise.resolve(error ? { error: error } : {});
  };

  function StripeInstance(pk) {
    this.pk = pk;
  }
  StripeInstance.prototype._registerWrapper = function () {};
  StripeInstance.prototype.registerAppInfo = function () {};
  StripeInstance.prototype.elements = function (options) {
    return new Elements(this, options);
  };
  StripeInstance.prototype.createToken = function () {
    return Promise.resolve({ error: { type: 'invalid_request_error', message: 'Not supported by the stand-in.' } });
  };
  StripeInstance.prototype.confirmCardPayment = StripeInstance.prototype.createToken;
  StripeInstance.prototype.createPaymentMethod = function (opts) {
    var e = opts && opts.elements && opts.elements.element;
    if (!e) return Promise.resolve({ error: { type: 'integration_error', message: 'createPaymentMethod needs { elements }.' } });
    var params = (opts && opts.params) || {};
    var body =
      e.type === 'card'
        ? { type: 'card', card: e.card(), billing_details: params.billing_details }
        : { type: e.type, billing_details: params.billing_details };
    return call('POST', '/v1/payment_methods', this.pk, body).then(function (r) {
      if (r.error) return { error: r.error };
      return { paymentMethod: r.ok };
    });
  };
  StripeInstance.prototype.retrievePaymentIntent = function (clientSecret) {
    var id = String(clientSecret).split('_secret_')[0];
    return call('GET', '/v1/payment_intents/' + id, this.pk, { client_secret: clientSecret }).then(function (r) {
      return r.error ? { error: r.error } : { paymentIntent: r.ok };
    });
  };
  StripeInstance.prototype.handleNextAction = function (opts) {
    var pk = this.pk;
    var clientSecret = opts && opts.clientSecret;
    var id = String(clientSecret).split('_secret_')[0];
    return this.retrievePaymentIntent(clientSecret).then(function (r) {
      if (r.error) return r;
      var pi = r.paymentIntent;
      if (pi.status !== 'requires_action') return { paymentIntent: pi };
      var url = pi.next_action && pi.next_action.redirect_to_url && pi.next_action.redirect_to_url.url;
      if (url && !/\/3ds\//.test(url)) {
        window.location.assign(url);
        return new Promise(function () {});
      }
      return challenge(pi).then(function (pass) {
        return call('POST', '/v1/payment_intents/' + id + '/standin_authenticate', pk, {
          client_secret: clientSecret,
          outcome: pass ? 'complete' : 'fail',
        }).then(function (a) {
          if (a.error) return { error: a.error };
          var after = a.ok;
          if (after.status === 'succeeded' || after.status === 'processing') return { paymentIntent: after };
          var err = after.last_payment_error || { message: 'We are unable to authenticate your payment method.' };
          return { error: { type: 'invalid_request_error', code: err.code, message: err.message, payment_intent: after } };
        });
      });
    });
  };

  /** Stripe's 3-D Secure test page, in a dialog over the page: Complete or Fail authentication. */
  function challenge(pi) {
    return new Promise(function (resolve) {
      var opener = document.activeElement;
      var back = el('div', {
        class: 'stripe-standin-3ds',
        style: 'position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:2147483647',
      });
      var box = el('div', {
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': 'stripe-standin-3ds-title',
        style: 'background:#fff;color:#111;padding:24px;max-width:360px;border-radius:8px',
      });
      box.appendChild(el('h2', { id: 'stripe-standin-3ds-title' }, '3D Secure test payment'));
      box.appendChild(
        el('p', {}, 'Authenticate a payment of ' + (pi.amount / 100).toFixed(2) + ' ' + String(pi.currency).toUpperCase() + '.'),
      );
      var ok = el('button', { type: 'button' }, 'Complete authentication');
      var no = el('button', { type: 'button' }, 'Fail authentication');
      function done(pass) {
        document.removeEventListener('keydown', onKey, true);
        back.remove();
        if (opener && opener.focus) opener.focus();
        resolve(pass);
      }
      function onKey(e) {
        if (e.key === 'Escape') done(false);
        if (e.key === 'Tab') {
          e.preventDefault();
          (document.activeElement === ok ? no : ok).focus();
        }
      }
      ok.addEventListener('click', function () {
        done(true);
      });
      no.addEventListener('click', function () {
        done(false);
      });
      box.appendChild(ok);
      box.appendChild(document.createTextNode(' '));
      box.appendChild(no);
      back.appendChild(box);
      document.body.appendChild(back);
      document.addEventListener('keydown', onKey, true);
      ok.focus();
    });
  }

  function Stripe(pk) {
    if (typeof pk !== 'string' || !/^pk_(test|live)_/.test(pk)) throw new Error('Invalid publishable key');
    return new StripeInstance(pk);
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
