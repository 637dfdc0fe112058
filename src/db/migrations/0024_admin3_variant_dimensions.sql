-- Catalogue (issue 24): a variant's parcel dimensions (length, width and height in cm or in), beside its weight.
ALTER TABLE "product_variants" ADD COLUMN "dimensions" jsonb;
