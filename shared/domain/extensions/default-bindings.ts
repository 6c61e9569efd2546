import type { ExtensionAction } from './actions';
import type { JsonValue, StaticTarget } from './binding';

/**
 * The cart that `GET /{projectKey}/resource/namespace-action-with-example` declares as
 * its example: a copy of test/fixtures/examples/action-success.json, kept in source because a
 * function's bundle carries no test fixtures.
 */
export const CART_EXAMPLE: JsonValue = {
  "cartId": "534a5f86-ea14-4b54-b2da-62a0672707e1",
  "cartVersion": "15",
  "lineItems": [
    {
      "lineItemId": "d41690bc-ea20-4254-b10b-8dxeac87c1b0",
      "productId": "6bgggaf4-c2b8-4ba7-945e-95e2a113a41f",
      "name": "Casual jacket",
      "type": "variant",
      "count": 1,
      "price": {
        "fractionDigits": 2,
        "centAmount": 39900,
        "currencyCode": "EUR"
      },
      "discountTexts": [],
      "discounts": [],
      "totalPrice": {
        "fractionDigits": 2,
        "centAmount": 39900,
        "currencyCode": "EUR"
      },
      "variant": {
        "id": "1",
        "sku": "M0E200KJ1200DSDJ",
        "images": [
          "https://your-storage.com/images/casual_jacket.jpg"
        ],
        "groupId": "78d95",
        "attributes": {
          "articleNumberManufacturer": "621840423 V0065",
          "articleNumberMax": "78665",
          "matrixId": "M0E200KJ1200DSDJ",
          "baseId": "78665",
          "designer": {
            "key": "casual",
            "label": "casual"
          },
          "madeInItaly": {
            "key": "no",
            "label": "no"
          },
          "commonSize": {
            "key": "xxs",
            "label": "XXS"
          },
          "size": "XXS",
          "color": {
            "key": "black",
            "label": "Black"
          },
          "colorFreeDefinition": "black",
          "style": {
            "key": "sporty",
            "label": "sporty"
          },
          "gender": {
            "key": "men",
            "label": "Men"
          },
          "season": "S15"
        },
        "price": {
          "fractionDigits": 2,
          "centAmount": 39900,
          "currencyCode": "EUR"
        },
        "isOnStock": true
      },
      "isGift": false,
      "_url": "/slug/p/M0E200KJ1200DSDJ"
    }
  ],
  "sum": {
    "fractionDigits": 2,
    "centAmount": 39900,
    "currencyCode": "EUR"
  },
  "shippingAddress": {},
  "billingAddress": {},
  "payments": [],
  "discountCodes": []
};

/**
 * What an action answers in a project that bound nothing to it. A project's own binding (stored,
 * `npm run extension -- bind ...`) always wins; `unbind` brings the default back.
 */
export const DEFAULT_BINDINGS: Partial<Record<ExtensionAction, StaticTarget>> = {
  'namespace-action-with-example': { kind: 'static', statusCode: 200, document: CART_EXAMPLE },
};
