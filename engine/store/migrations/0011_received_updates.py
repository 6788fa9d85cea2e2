from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0010_outgoing_calls')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ReceivedUpdate',
            fields=[
                ('update_id', fields.BigIntField(generated=False, primary_key=True, unique=True, db_index=True)),
                ('lane', fields.CharField(max_length=64)),
                ('payload', fields.TextField(unique=False)),
                ('received_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('claimed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('claimed_by', fields.CharField(null=True, max_length=64)),
            ],
            options={'table': 'received_update', 'app': 'models', 'pk_attr': 'update_id'},
            bases=['Model'],
        ),
    ]
